#include "rule_set.hpp"

#include "../input_error.hpp"
#include "../json_reader.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

namespace cleave::fusion {

// Defined in the file CMake generates from resources/fusion/*.json.
extern const std::vector<std::pair<std::string, std::string>> kBuiltinRuleSets;

namespace {

using nlohmann::json;

// A list of op types (["Conv", "Relu"]); empty when absent.
std::set<std::string> ops(const JsonReader& reader, const json& object, const std::string& pointer,
                          const char* key) {
    std::set<std::string> out;
    if (const auto* v = reader.array(object, pointer, key, false, "a list of op types"))
        for (std::size_t i = 0; i < v->size(); ++i)
            out.insert(reader.string_at((*v)[i], child_pointer(child_pointer(pointer, key), i),
                                        "an op type such as \"Relu\""));
    return out;
}

// A count >= 1 (a threshold, a launch count), or `fallback` when absent.
int count(const JsonReader& reader, const json& object, const std::string& pointer,
          const std::string& key, int fallback, bool required) {
    return reader.whole_number(object, pointer, key, required, 1, std::numeric_limits<int>::max())
        .value_or(fallback);
}

std::string joined(const std::map<std::string, WinogradThresholds>& families) {
    std::string out;
    for (const auto& [name, _] : families)
        out += (out.empty() ? "" : ", ") + name;
    return out;
}

// The "conv_kernel_types" section: kernel type names, and per GPU family the Winograd thresholds.
ConvKernelTypes parse_conv_kernel_types(const JsonReader& reader, const json& section) {
    const std::string pointer = "/conv_kernel_types";
    reader.only_known(section, pointer,
                      {"ops", "depthwise", "grouped", "grouped_multiple", "winograd", "direct",
                       "unsupported", "default_gpu_family", "winograd_thresholds", "note"});
    ConvKernelTypes types;
    types.ops = ops(reader, section, pointer, "ops");
    if (types.ops.empty())
        reader.fail(pointer, "expected \"ops\": a non-empty list of op types such as [\"Conv\"]");
    for (auto [key, name] :
         {std::pair{"depthwise", &types.depthwise}, std::pair{"grouped", &types.grouped},
          std::pair{"winograd", &types.winograd}, std::pair{"direct", &types.direct},
          std::pair{"unsupported", &types.unsupported}}) {
        *name = reader.string(section, pointer, key, true,
                              "a kernel type name such as \"Conv2D\"");
    }
    types.grouped_multiple = count(reader, section, pointer, "grouped_multiple", 1, false);
    const auto* families = reader.object(section, pointer, "winograd_thresholds", true,
                                         "an object GPU family -> thresholds");
    for (const auto& [family, entry] : families->items()) {
        const std::string at = child_pointer(pointer + "/winograd_thresholds", family);
        const bool plain = !family.empty() && std::all_of(family.begin(), family.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
        });
        if (!plain)
            reader.fail(at, "expected a GPU family name of lower-case letters, digits and '-'");
        reader.expect_object(entry, at, "an object with min_src_slices, min_dst_slices and min_tiles");
        reader.only_known(entry, at, {"min_src_slices", "min_dst_slices", "min_tiles"});
        types.winograd_thresholds[family] = {
            count(reader, entry, at, "min_src_slices", 1, true),
            count(reader, entry, at, "min_dst_slices", 1, true),
            count(reader, entry, at, "min_tiles", 1, true)};
    }
    if (types.winograd_thresholds.empty())
        reader.fail(pointer + "/winograd_thresholds", "expected at least one GPU family");
    types.default_gpu_family =
        reader.string(section, pointer, "default_gpu_family", true, "a GPU family name");
    if (!types.winograd_thresholds.count(types.default_gpu_family))
        reader.fail(pointer + "/default_gpu_family",
                    "no family \"" + types.default_gpu_family +
                        "\" in winograd_thresholds; expected one of " +
                        joined(types.winograd_thresholds));
    return types;
}

// An optional true or false, false when absent.
bool flag(const JsonReader& reader, const json& object, const std::string& pointer,
          const char* key) {
    return reader.boolean(object, pointer, key, false).value_or(false);
}

// An optional input index >= 0, -1 when absent.
int input_index(const JsonReader& reader, const json& object, const std::string& pointer,
                const char* key) {
    return reader.whole_number(object, pointer, key, false, 0, std::numeric_limits<int>::max())
        .value_or(-1);
}

// One of "rules": what it matches on each side of an edge, and the kernel it makes.
FusionRule parse_rule(const JsonReader& reader, const json& r, const std::string& pointer) {
    reader.expect_object(r, pointer, "a rule object");
    reader.only_known(r, pointer,
                      {"name",
                       "from",
                       "from_kernel",
                       "from_kernel_type",
                       "to",
                       "to_input",
                       "into_kernel_type",
                       "from_input_rank",
                       "from_scalar_scale",
                       "to_scalar_scale",
                       "from_same_type",
                       "to_channel_constant",
                       "to_gemm_bias",
                       "to_bias_vector",
                       "from_matmul_operand",
                       "to_split_reshape_into_transpose",
                       "to_unit_reshape",
                       "to_output_reaches_transpose_through",
                       "transpose_through_split",
                       "join_consumer",
                       "single_consumer",
                       "single_output",
                       "other_input_is_from_input",
                       "other_inputs_from_kernel_input",
                       "to_runtime_input",
                       "latest_input_first",
                       "other_inputs_ready",
                       "siblings",
                       "kernel_type",
                       "note"});
    FusionRule rule;
    rule.name = reader.string(r, pointer, "name", true, "the rule's name");
    rule.from = ops(reader, r, pointer, "from");
    rule.from_kernel = ops(reader, r, pointer, "from_kernel");
    rule.from_kernel_type = ops(reader, r, pointer, "from_kernel_type");
    rule.to = ops(reader, r, pointer, "to");
    rule.to_input = input_index(reader, r, pointer, "to_input");
    rule.into_kernel_type = ops(reader, r, pointer, "into_kernel_type");
    if (r.contains("from_input_rank")) {
        const std::string at = pointer + "/from_input_rank";
        const json& pair = r["from_input_rank"];
        if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_unsigned() ||
            !pair[1].is_number_unsigned())
            throw InputError(reader.file(), at, "[input index, rank], two whole numbers");
        constexpr int most = std::numeric_limits<int>::max();
        rule.from_input_rank = {reader.whole_number_at(pair[0], at + "/0", 0, most),
                                reader.whole_number_at(pair[1], at + "/1", 0, most)};
    }
    rule.from_scalar_scale = flag(reader, r, pointer, "from_scalar_scale");
    rule.to_scalar_scale = flag(reader, r, pointer, "to_scalar_scale");
    rule.from_same_type = flag(reader, r, pointer, "from_same_type");
    rule.to_channel_constant = flag(reader, r, pointer, "to_channel_constant");
    rule.to_gemm_bias = flag(reader, r, pointer, "to_gemm_bias");
    rule.to_bias_vector = flag(reader, r, pointer, "to_bias_vector");
    rule.from_matmul_operand = flag(reader, r, pointer, "from_matmul_operand");
    rule.to_split_reshape_into_transpose =
        flag(reader, r, pointer, "to_split_reshape_into_transpose");
    rule.to_unit_reshape = flag(reader, r, pointer, "to_unit_reshape");
    rule.to_output_reaches_transpose_through =
        ops(reader, r, pointer, "to_output_reaches_transpose_through");
    rule.transpose_through_split = flag(reader, r, pointer, "transpose_through_split");
    rule.join_consumer = flag(reader, r, pointer, "join_consumer");
    if (!rule.into_kernel_type.empty() && !rule.join_consumer)
        throw InputError(reader.file(), pointer + "/into_kernel_type",
                         "into_kernel_type only with \"join_consumer\": true");
    rule.single_consumer = flag(reader, r, pointer, "single_consumer");
    rule.single_output = flag(reader, r, pointer, "single_output");
    rule.other_input_is_from_input = flag(reader, r, pointer, "other_input_is_from_input");
    rule.other_inputs_from_kernel_input =
        flag(reader, r, pointer, "other_inputs_from_kernel_input");
    rule.to_runtime_input = input_index(reader, r, pointer, "to_runtime_input");
    rule.latest_input_first = ops(reader, r, pointer, "latest_input_first");
    rule.other_inputs_ready = flag(reader, r, pointer, "other_inputs_ready");
    rule.siblings = flag(reader, r, pointer, "siblings");
    if (r.contains("kernel_type")) // empty: the anchor's own type, as when absent
        rule.kernel_type = reader.string_at(r["kernel_type"], pointer + "/kernel_type",
                                            "a kernel type name", true);
    return rule;
}

} // namespace

RuleSet parse_rule_set(const std::string& json_text, const std::string& file) {
    const JsonReader reader(file);
    const json root = reader.parse(json_text, "a fusion rule set");
    reader.expect_object(root, "", "a JSON object with \"format\": \"cleave-fusion-rules\"");
    if (reader.string(root, "", "format", true, "\"cleave-fusion-rules\"") != "cleave-fusion-rules")
        reader.fail("/format", "expected \"cleave-fusion-rules\"");
    const auto* version = reader.member(root, "", "version", true, "1");
    if (*version != 1)
        reader.fail("/version", "version " + version->dump() + " is not known; expected 1");

    RuleSet set;
    set.file = file;
    set.name = reader.string(root, "", "name", true, "the rule set's name");
    if (root.contains("runtime"))
        set.runtime = reader.string_at(root["runtime"], "/runtime", "what the rules describe", true);
    set.fold_constants = flag(reader, root, "", "fold_constants");
    set.share_equal_constants = flag(reader, root, "", "share_equal_constants");
    const auto* rules = reader.array(root, "", "rules", true, "a list of rules");
    for (std::size_t i = 0; i < rules->size(); ++i)
        set.rules.push_back(parse_rule(reader, (*rules)[i], child_pointer("/rules", i)));
    if (const auto* section = reader.object(root, "", "conv_kernel_types", false,
                                            "an object describing conv kernel types")) {
        set.conv_kernel_types = parse_conv_kernel_types(reader, *section);
        set.gpu_family = set.conv_kernel_types->default_gpu_family;
    }
    if (const auto* launches =
            reader.object(root, "", "launches", false, "an object op -> count")) {
        for (const auto& [op, n] : launches->items())
            set.launches[op] = count(reader, *launches, "/launches", op, 1, true);
    }
    return set;
}

RuleSet load_rule_set(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "", "cannot read the fusion rule file");
    std::stringstream text;
    text << in.rdbuf();
    return parse_rule_set(text.str(), path);
}

std::vector<std::string> builtin_rule_set_names() {
    std::vector<std::string> names;
    for (const auto& [name, _] : kBuiltinRuleSets)
        names.push_back(name);
    return names;
}

RuleSet find_rule_set(const std::string& name_or_path) {
    for (const auto& [name, text] : kBuiltinRuleSets)
        if (name == name_or_path) {
            RuleSet set = parse_rule_set(text, "resources/fusion/" + name + ".json");
            set.file = "built-in";
            return set;
        }
    if (name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".json"))
        return load_rule_set(name_or_path);
    std::string names;
    for (const auto& n : builtin_rule_set_names())
        names += (names.empty() ? "" : ", ") + n;
    throw InputError("--rules", name_or_path,
                     "no such rule set; expected one of " + names + " or a .json file");
}

} // namespace cleave::fusion
