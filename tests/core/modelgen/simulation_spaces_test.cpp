// The simulation spaces: every space's models load with their shapes inferred, differ from each
// other, and are the same again from the same seed.
#include "built_model.hpp"
#include "core/modelgen/simulation_spaces.hpp"
#include "model_checks.hpp"

#include <QtTest>
#include <set>

using namespace cleave;
using cleave::test::check_shapes;
using cleave::test::first_warning;

namespace {

std::string serialised(const modelgen::ModelSpec& spec, std::uint64_t seed) {
    modelgen::NetBuilder b(spec.name, spec.input_shape, seed);
    spec.build(b);
    return b.model().SerializeAsString();
}

} // namespace

class SimulationSpacesTest : public QObject {
    Q_OBJECT

private slots:
    void simulationModelsAreRepeatableAndLoad() {
        for (const auto& space : modelgen::kSimulationSpaces) {
            const auto a = modelgen::simulation_models(6, 7, space);
            const auto b = modelgen::simulation_models(6, 7, space);
            const auto c = modelgen::simulation_models(6, 8, space);
            QCOMPARE(a.size(), std::size_t{6});
            std::set<std::string> descriptions;
            for (std::size_t i = 0; i < a.size(); ++i) {
                QCOMPARE(a[i].description, b[i].description);
                QCOMPARE(serialised(a[i], 3), serialised(b[i], 3));
                descriptions.insert(a[i].description);
                const auto m = test::built_model(a[i]);
                check_shapes(m);
                QVERIFY2(m.warnings.empty(), (a[i].name + ": " + first_warning(m)).c_str());
            }
            QVERIFY(descriptions.size() >= 5); // different structures
            QVERIFY(a[0].description != c[0].description || a[1].description != c[1].description);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, modelgen::simulation_models(1, 1, "x"));
    }
};

QTEST_GUILESS_MAIN(SimulationSpacesTest)
#include "simulation_spaces_test.moc"
