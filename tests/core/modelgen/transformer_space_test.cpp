// The transformer space: networks named after their family, numbered across the space, so that
// training can hold a family out.
#include "built_model.hpp"
#include "core/modelgen/simulation_spaces.hpp"
#include "core/profile/measured_dataset.hpp"

#include <QtTest>
#include <set>

using namespace cleave;

class TransformerSpaceTest : public QObject {
    Q_OBJECT

private slots:
    // A transformer-space network is named after its family, numbered across the space, so
    // that training can hold a family out (profile::model_family reads it from the name).
    void transformerNetworksAreNamedAfterTheirFamily() {
        const auto models = modelgen::simulation_models(24, 5, "transformer");
        std::set<std::string> families;
        for (std::size_t i = 0; i < models.size(); ++i) {
            const auto& s = models[i];
            const auto family = s.description.substr(0, s.description.find(' '));
            const auto number = std::to_string(i);
            QCOMPARE(s.name, family + "_" + std::string(4 - number.size(), '0') + number);
            QCOMPARE(profile::model_family(s.name), family);
            QVERIFY(profile::is_transformer_family(family));
            QCOMPARE(s.category, std::string("transformer"));
            families.insert(family);
        }
        QCOMPARE(families.size(), std::size_t{6});
        QCOMPARE(modelgen::simulation_models(2, 5, "zoo")[1].name, std::string("zoo_0001"));
    }
};

QTEST_GUILESS_MAIN(TransformerSpaceTest)
#include "transformer_space_test.moc"
