// Binding symbolic input dims by name, by decoder role and by expression: first on input lists,
// then end to end on a tiny decoder as Optimum and torch.onnx's dynamo exporter write one, whose
// MACs are worked out by hand in tiny_decoder.hpp.
#include "core/graph/input_dim_binding.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "tiny_decoder.hpp"

#include <QtTest>

using cleave::InputError;
using cleave::graph::bind_input_dims;
using cleave::graph::BoundInputDims;
using cleave::graph::DimBindings;
using cleave::graph::DimRole;
using cleave::graph::InputDims;
using cleave::graph::LoadOptions;
using cleave::graph::Model;
using cleave::graph::Shape;
using cleave::test::TinyDecoder;
using cleave::test::TinyDecoderNames;

namespace {

InputDims dims(const std::string& name, const std::vector<std::string>& list) {
    InputDims input{name, {}};
    for (const auto& d : list)
        if (d.find_first_not_of("0123456789") == std::string::npos)
            input.dims.push_back({std::stoll(d), ""});
        else
            input.dims.push_back({-1, d});
    return input;
}

QString refusal(const std::vector<InputDims>& inputs, const DimBindings& bindings) {
    try {
        bind_input_dims(inputs, bindings, "model.onnx");
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

DimBindings decode(std::int64_t cached, std::int64_t batch = 1) {
    DimBindings b;
    b.decode = cached;
    b.batch = batch;
    return b;
}

DimBindings prefill(std::int64_t tokens) {
    DimBindings b;
    b.prefill = tokens;
    b.batch = 1;
    return b;
}

Model load_decoder(const DimBindings& bindings, const TinyDecoderNames& names = {}) {
    const std::string s = TinyDecoder::build(names).SerializeAsString();
    LoadOptions options;
    options.dims = bindings;
    return cleave::graph::load_model_from_bytes({s.begin(), s.end()}, "decoder.onnx", options);
}

QString load_refusal(const DimBindings& bindings, const TinyDecoderNames& names = {}) {
    try {
        load_decoder(bindings, names);
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

std::optional<Shape> shape_of(const Model& model, const char* tensor) {
    const int t = model.find_tensor(tensor);
    return t < 0 ? std::nullopt : model.tensors[static_cast<std::size_t>(t)].shape;
}

bool every_tensor_shaped(const Model& model) {
    for (const auto& t : model.tensors) {
        if (!t.shape)
            return false;
        for (const auto d : *t.shape)
            if (d < 0)
                return false;
    }
    return true;
}

// 640 BS + 32 BST (tiny_decoder.hpp).
std::int64_t tiny_decoder_macs(std::int64_t batch, std::int64_t fresh, std::int64_t cached) {
    return 640 * batch * fresh + 32 * batch * fresh * (cached + fresh);
}

} // namespace

class InputDimBindingTest : public QObject {
    Q_OBJECT

private slots:
    void rolesComeFromWhereADimAppears() {
        using R = DimRole;
        using Roles = std::vector<std::optional<DimRole>>;
        QCOMPARE(cleave::graph::input_dim_roles("input_ids", 2), (Roles{R::Batch, R::NewTokens}));
        QCOMPARE(cleave::graph::input_dim_roles("position_ids", 2),
                 (Roles{R::Batch, R::NewTokens}));
        QCOMPARE(cleave::graph::input_dim_roles("attention_mask", 2),
                 (Roles{R::Batch, R::TotalTokens}));
        const Roles cache{R::Batch, std::nullopt, R::CachedTokens, std::nullopt};
        QCOMPARE(cleave::graph::input_dim_roles("past_key_values.3.key", 4), cache);
        QCOMPARE(cleave::graph::input_dim_roles("past_key.0", 4), cache);
        QCOMPARE(cleave::graph::input_dim_roles("past_key_values_value_cache_1", 4), cache);
        QCOMPARE(cleave::graph::input_dim_roles("past.0", 5),
                 (Roles{std::nullopt, R::Batch, std::nullopt, R::CachedTokens, std::nullopt}));
        // An encoder-decoder's cross-attention cache holds encoder positions, not cached tokens.
        QCOMPARE(cleave::graph::input_dim_roles("past_key_values.0.encoder.key", 4), Roles(4));
        QCOMPARE(cleave::graph::input_dim_roles("input_ids", 3), Roles(3)); // not the known rank
        QCOMPARE(cleave::graph::input_dim_roles("image", 4), Roles(4));
    }

    void rolesComeFromSpellingToo() {
        QCOMPARE(cleave::graph::spelled_dim_role("batch_size"), std::optional(DimRole::Batch));
        QCOMPARE(cleave::graph::spelled_dim_role("past_sequence_length"),
                 std::optional(DimRole::CachedTokens));
        QCOMPARE(cleave::graph::spelled_dim_role("total_sequence_length"),
                 std::optional(DimRole::TotalTokens));
        QCOMPARE(cleave::graph::spelled_dim_role("s0"), std::nullopt);
    }

    void withoutBindingsAModelThatIsNoDecoderKeepsTheOldRule() {
        const auto bound = bind_input_dims({dims("x", {"N", "3", "224", "224"})}, {}, "m.onnx");
        QCOMPARE(bound.shapes, (std::vector<Shape>{{1, 3, 224, 224}}));
        QCOMPARE(bound.warnings,
                 (std::vector<std::string>{"input 'x' dim 0 (N) is not fixed; using 1 (set it with "
                                           "--input-shape or --dim)"}));
        QVERIFY(bound.names.empty());
        QVERIFY(bound.roles.empty());
    }

    void aNameBindsWhereverItAppears() {
        DimBindings b;
        b.names["N"] = 4;
        const auto bound =
            bind_input_dims({dims("x", {"N", "3", "8", "8"}), dims("y", {"N", "10"})}, b, "m.onnx");
        QCOMPARE(bound.shapes, (std::vector<Shape>{{4, 3, 8, 8}, {4, 10}}));
        QVERIFY(bound.warnings.empty());
        QCOMPARE(bound.names, (std::map<std::string, std::int64_t>{{"N", 4}}));
    }

    void expressionsEvaluateFromBoundNames() {
        DimBindings b;
        b.names["n"] = 3;
        const auto bound = bind_input_dims({dims("x", {"n", "2*n + 1", "(n - 1)*4"})}, b, "m.onnx");
        QCOMPARE(bound.shapes, (std::vector<Shape>{{3, 7, 8}}));
        QCOMPARE(bound.names.at("2*n + 1"), std::int64_t(7));
    }

    void anExpressionThatDoesNotParseIsRefused() {
        DimBindings b;
        b.names["n"] = 3;
        QCOMPARE(refusal({dims("x", {"n", "n % 2"})}, b),
                 QString("model.onnx: input 'x' dim 1 (n % 2): unexpected '%' at character 3; "
                         "expected integers and names joined by + - * / and parentheses; or bind "
                         "the whole text with --dim 'n % 2=N'"));
        b.names["n % 2"] = 1; // a text that does not parse is bound whole
        QCOMPARE(bind_input_dims({dims("x", {"n", "n % 2"})}, b, "model.onnx").shapes,
                 (std::vector<Shape>{{3, 1}}));
    }

    void aNegativeExpressionIsRefused() {
        DimBindings b;
        b.names["n"] = 3;
        QVERIFY(
            refusal({dims("x", {"n - 5"})}, b).contains("evaluates to -2; expected a dim >= 0"));
    }

    void aDimNamedNowhereIsRefused() {
        DimBindings b;
        b.names["seq"] = 3;
        QCOMPARE(refusal({dims("x", {"N", "2*M"})}, b),
                 QString("model.onnx: --dim seq=3: no input dim of the model is named so; its "
                         "symbolic dims are: 2*M, M, N"));
    }

    void anEncoderTakesThePrefillLength() {
        const auto bound =
            bind_input_dims({dims("input_ids", {"batch_size", "sequence_length"}),
                             dims("token_type_ids", {"batch_size", "sequence_length"})},
                            prefill(128), "bert.onnx");
        QCOMPARE(bound.shapes, (std::vector<Shape>{{1, 128}, {1, 128}}));
        QVERIFY(bound.warnings.empty());
    }

    void theBatchDefaultsToOneWithANote() {
        DimBindings b;
        b.prefill = 16;
        const auto bound =
            bind_input_dims({dims("input_ids", {"batch_size", "sequence_length"})}, b, "m.onnx");
        QCOMPARE(bound.shapes, (std::vector<Shape>{{1, 16}}));
        QVERIFY(bound.warnings.empty());
        QCOMPARE(bound.notes,
                 (std::vector<std::string>{"batch dim (batch_size) not bound; using 1 (set it with "
                                           "--batch)"}));
        QCOMPARE(bound.roles,
                 (std::map<std::string, std::int64_t>{{"batch", 1}, {"sequence", 16}}));
    }

    void aRoleFlagThatBindsNothingIsNoted() {
        DimBindings b;
        b.batch = 2;
        b.names["N"] = 2;
        const auto bound = bind_input_dims({dims("image", {"N", "3"})}, b, "m.onnx");
        QCOMPARE(bound.warnings, (std::vector<std::string>{
                                     "--batch binds no dim: no input of the model has a batch "
                                     "dim"}));
    }

    void decodeBindsEveryDimOfAnOptimumDecoder() {
        const Model model = load_decoder(decode(1024));
        QVERIFY2(model.warnings.empty(), model.warnings.empty() ? "" : model.warnings[0].c_str());
        QVERIFY(every_tensor_shaped(model));
        QCOMPARE(shape_of(model, "input_ids"), std::optional(Shape{1, 1}));
        QCOMPARE(shape_of(model, "attention_mask"), std::optional(Shape{1, 1025}));
        QCOMPARE(shape_of(model, "past_key_values.1.value"), std::optional(Shape{1, 2, 1024, 4}));
        QCOMPARE(shape_of(model, "present.0.key"), std::optional(Shape{1, 2, 1025, 4}));
        QCOMPARE(shape_of(model, "present.1.value"), std::optional(Shape{1, 2, 1025, 4}));
        QCOMPARE(shape_of(model, "logits"), std::optional(Shape{1, 1, 16}));
        QCOMPARE(model.macs, std::int64_t(33440));
        QCOMPARE(model.macs, tiny_decoder_macs(1, 1, 1024));
        QCOMPARE(model.bound_dims,
                 (std::map<std::string, std::int64_t>{{"batch_size", 1},
                                                      {"past_sequence_length", 1024},
                                                      {"past_sequence_length + 1", 1025},
                                                      {"sequence_length", 1}}));
        QCOMPARE(model.dim_roles,
                 (std::map<std::string, std::int64_t>{
                     {"batch", 1}, {"past", 1024}, {"sequence", 1}, {"total", 1025}}));
    }

    void prefillHasNoCachedTokens() {
        const Model model = load_decoder(prefill(512));
        QVERIFY(model.warnings.empty());
        QVERIFY(every_tensor_shaped(model));
        QCOMPARE(shape_of(model, "past_key_values.0.key"), std::optional(Shape{1, 2, 0, 4}));
        QCOMPARE(shape_of(model, "present.0.key"), std::optional(Shape{1, 2, 512, 4}));
        QCOMPARE(shape_of(model, "attention_mask"), std::optional(Shape{1, 512}));
        QCOMPARE(shape_of(model, "logits"), std::optional(Shape{1, 512, 16}));
        QCOMPARE(model.macs, std::int64_t(8716288));
        QCOMPARE(model.macs, tiny_decoder_macs(1, 512, 0));
        for (const auto& node : model.nodes)
            QVERIFY2(node.cost.complete, node.name.c_str());
    }

    void macsScaleWithTheBatch() {
        QCOMPARE(load_decoder(decode(1024, 2)).macs, std::int64_t(66880));
        QCOMPARE(load_decoder(decode(0)).macs, tiny_decoder_macs(1, 1, 0)); // the first token
    }

    void theBatchNoteIsNoWarningWithoutBatch() {
        DimBindings b;
        b.decode = 1024;
        const Model model = load_decoder(b);
        QVERIFY(model.warnings.empty());
        QCOMPARE(model.notes,
                 (std::vector<std::string>{"batch dim (batch_size) not bound; using 1 (set it with "
                                           "--batch)"}));
        QCOMPARE(model.macs, std::int64_t(33440));
    }

    void dynamoNamesAreBoundByRole() {
        const Model model = load_decoder(decode(1024), TinyDecoderNames::dynamo());
        QVERIFY(model.warnings.empty());
        QVERIFY(every_tensor_shaped(model));
        QCOMPARE(shape_of(model, "present.1.key"), std::optional(Shape{1, 2, 1025, 4}));
        QCOMPARE(model.macs, std::int64_t(33440));
        QCOMPARE(model.bound_dims, (std::map<std::string, std::int64_t>{
                                       {"s0", 1}, {"s1", 1}, {"s2", 1024}, {"s3", 1025}}));
        QCOMPARE(load_decoder(prefill(512), TinyDecoderNames::dynamo()).macs,
                 std::int64_t(8716288));
    }

    void namesAloneGiveTheRoles() {
        DimBindings b;
        b.names = {{"batch_size", 1}, {"sequence_length", 1}, {"past_sequence_length", 7}};
        const Model model = load_decoder(b);
        QVERIFY(model.warnings.empty());
        QCOMPARE(shape_of(model, "attention_mask"), std::optional(Shape{1, 8}));
        QCOMPARE(model.macs, tiny_decoder_macs(1, 1, 7));
    }

    void anUnboundDecoderDimIsRefusedNamingIt() {
        QCOMPARE(load_refusal({}),
                 QString("decoder.onnx: input 'input_ids' dim 1 (sequence_length): the decoder's "
                         "new-token count is not bound; give --prefill N or --decode L, or --dim "
                         "sequence_length=N"));
        DimBindings only_new;
        only_new.names["s1"] = 4;
        QCOMPARE(load_refusal(only_new, TinyDecoderNames::dynamo()),
                 QString("decoder.onnx: input 'attention_mask' dim 1 (s3): the decoder's "
                         "total-token count (cached + new) is not bound; give --prefill N or "
                         "--decode L, or --dim s3=N"));
    }

    void contradictingBindingsAreRefused() {
        DimBindings b = decode(1024);
        b.names["sequence_length"] = 4;
        QCOMPARE(load_refusal(b), QString("decoder.onnx: the new-token count: --decode 1024 "
                                          "gives 1 but --dim sequence_length=4 gives 4"));
    }

    void zeroNewTokensByNameIsRefused() {
        DimBindings b;
        b.names = {{"sequence_length", 0}, {"past_sequence_length", 7}};
        QCOMPARE(load_refusal(b), QString("decoder.onnx: the new-token count: --dim "
                                          "sequence_length=0 gives 0; expected at least 1"));
    }

    void anInputShapeBindsTheNamesItFixes() {
        const std::string s = TinyDecoder::build().SerializeAsString();
        LoadOptions options;
        options.input_shapes["input_ids"] = {1, 5};
        options.dims.names["past_sequence_length"] = 3;
        const Model model =
            cleave::graph::load_model_from_bytes({s.begin(), s.end()}, "decoder.onnx", options);
        QVERIFY(model.warnings.empty());
        QCOMPARE(shape_of(model, "attention_mask"), std::optional(Shape{1, 8}));
        QCOMPARE(shape_of(model, "position_ids"), std::optional(Shape{1, 5}));
        QCOMPARE(model.macs, tiny_decoder_macs(1, 5, 3));
    }
};

QTEST_GUILESS_MAIN(InputDimBindingTest)
#include "input_dim_binding_test.moc"
