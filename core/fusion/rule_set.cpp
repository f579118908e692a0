#include "rule_set.hpp"

#include "../input_error.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace cleave::fusion {

// Defined in the file CMake generates from resources/fusion/*.json.
extern const std::vector<std::pair<std::string, std::string>> kBuiltinRuleSets;

namespace {

using nlohmann::json;

class Reader {
public:
    explicit Reader(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void fail(const std::string& pointer, const std::string& problem) const {
        throw InputError(file_, pointer.empty() ? "/" : pointer, problem);
    }

    const json* member(const json& object, const std::string& pointer, const char* key,
                       json::value_t type, const char* expected, bool required) const {
        const auto it = object.find(key);
        if (it == object.end()) {
            if (required)
                fail(pointer, std::string("missing \"") + key + "\"; expected " + expected);
            return nullptr;
        }
        const bool ok =
            type == json::value_t::number_integer ? it->is_number_integer() : it->type() == type;
        if (!ok)
            fail(pointer + "/" + key,
                 std::string("expected ") + expected + ", found " + it->type_name());
        return &*it;
    }

    std::string string(const json& object, const std::string& pointer, const char* key,
                       bool required) const {
        const auto* v = member(object, pointer, key, json::value_t::string, "a string", required);
        return v ? v->get<std::string>() : std::string();
    }

    bool boolean(const json& object, const std::string& pointer, const char* key) const {
        const auto* v =
            member(object, pointer, key, json::value_t::boolean, "true or false", false);
        return v && v->get<bool>();
    }

    std::set<std::string> ops(const json& object, const std::string& pointer,
                              const char* key) const {
        const auto* v =
            member(object, pointer, key, json::value_t::array, "a list of op types", false);
        std::set<std::string> out;
        if (!v)
            return out;
        for (std::size_t i = 0; i < v->size(); ++i) {
            if (!(*v)[i].is_string() || (*v)[i].get<std::string>().empty())
                fail(pointer + "/" + key + "/" + std::to_string(i),
                     "expected an op type such as \"Relu\"");
            out.insert((*v)[i].get<std::string>());
        }
        return out;
    }

    int whole_number(const json& object, const std::string& pointer, const char* key, int fallback,
                     bool required) const {
        const auto* v = member(object, pointer, key, json::value_t::number_integer,
                               "a whole number >= 1", required);
        if (!v)
            return fallback;
        if (v->get<std::int64_t>() < 1 || v->get<std::int64_t>() > 1'000'000)
            fail(pointer + "/" + key, "expected a whole number >= 1, found " + v->dump());
        return v->get<int>();
    }

    void only_known(const json& object, const std::string& pointer,
                    const std::vector<std::string>& known) const {
        for (const auto& [key, _] : object.items())
            if (std::find(known.begin(), known.end(), key) == known.end()) {
                std::string list;
                for (const auto& k : known)
                    list += (list.empty() ? "" : ", ") + k;
                fail(pointer + "/" + key, "unknown field; expected one of " + list);
            }
    }

private:
    std::string file_;
};

std::string joined(const std::map<std::string, WinogradThresholds>& families) {
    std::string out;
    for (const auto& [name, _] : families)
        out += (out.empty() ? "" : ", ") + name;
    return out;
}

// The "conv_kernel_types" section: kernel type names, and per GPU family the Winograd thresholds.
ConvKernelTypes parse_conv_kernel_types(const Reader& reader, const json& section) {
    const std::string pointer = "/conv_kernel_types";
    reader.only_known(section, pointer,
                      {"ops", "depthwise", "grouped", "grouped_multiple", "winograd", "direct",
                       "unsupported", "default_gpu_family", "winograd_thresholds", "note"});
    ConvKernelTypes types;
    types.ops = reader.ops(section, pointer, "ops");
    if (types.ops.empty())
        reader.fail(pointer, "expected \"ops\": a non-empty list of op types such as [\"Conv\"]");
    for (auto [key, name] :
         {std::pair{"depthwise", &types.depthwise}, std::pair{"grouped", &types.grouped},
          std::pair{"winograd", &types.winograd}, std::pair{"direct", &types.direct},
          std::pair{"unsupported", &types.unsupported}}) {
        *name = reader.string(section, pointer, key, true);
        if (name->empty())
            reader.fail(pointer + "/" + key, "expected a kernel type name such as \"Conv2D\"");
    }
    types.grouped_multiple = reader.whole_number(section, pointer, "grouped_multiple", 1, false);
    const auto* families =
        reader.member(section, pointer, "winograd_thresholds", json::value_t::object,
                      "an object GPU family -> thresholds", true);
    for (const auto& [family, entry] : families->items()) {
        const std::string at = pointer + "/winograd_thresholds/" + family;
        const bool plain = !family.empty() && std::all_of(family.begin(), family.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
        });
        if (!plain)
            reader.fail(at, "expected a GPU family name of lower-case letters, digits and '-'");
        if (!entry.is_object())
            reader.fail(at, std::string("expected an object with min_src_slices, min_dst_slices "
                                        "and min_tiles, found ") +
                                entry.type_name());
        reader.only_known(entry, at, {"min_src_slices", "min_dst_slices", "min_tiles"});
        types.winograd_thresholds[family] = {
            reader.whole_number(entry, at, "min_src_slices", 1, true),
            reader.whole_number(entry, at, "min_dst_slices", 1, true),
            reader.whole_number(entry, at, "min_tiles", 1, true)};
    }
    if (types.winograd_thresholds.empty())
        reader.fail(pointer + "/winograd_thresholds", "expected at least one GPU family");
    types.default_gpu_family = reader.string(section, pointer, "default_gpu_family", true);
    if (!types.winograd_thresholds.count(types.default_gpu_family))
        reader.fail(pointer + "/default_gpu_family",
                    "no family \"" + types.default_gpu_family +
                        "\" in winograd_thresholds; expected one of " +
                        joined(types.winograd_thresholds));
    return types;
}

} // namespace

RuleSet parse_rule_set(const std::string& json_text, const std::string& file) {
    Reader reader(file);
    json root;
    try {
        root = json::parse(json_text);
    } catch (const json::parse_error& e) {
        throw InputError(file, "byte " + std::to_string(e.byte),
                         "not valid JSON; expected a fusion rule set");
    }
    if (!root.is_object())
        reader.fail("", "expected a JSON object with \"format\": \"cleave-fusion-rules\"");
    if (reader.string(root, "", "format", true) != "cleave-fusion-rules")
        reader.fail("/format", "expected \"cleave-fusion-rules\"");
    const auto* version =
        reader.member(root, "", "version", json::value_t::number_integer, "a whole number", true);
    if (version->get<int>() != 1)
        reader.fail("/version", "version " + version->dump() + " is not known; expected 1");

    RuleSet set;
    set.file = file;
    set.name = reader.string(root, "", "name", true);
    set.runtime = reader.string(root, "", "runtime", false);
    set.fold_constants = reader.boolean(root, "", "fold_constants");
    const auto* rules =
        reader.member(root, "", "rules", json::value_t::array, "a list of rules", true);
    for (std::size_t i = 0; i < rules->size(); ++i) {
        const std::string pointer = "/rules/" + std::to_string(i);
        const json& r = (*rules)[i];
        if (!r.is_object())
            reader.fail(pointer, "expected a rule object");
        static const std::set<std::string> known{"name",
                                                 "from",
                                                 "from_kernel",
                                                 "from_kernel_type",
                                                 "to",
                                                 "to_input",
                                                 "single_consumer",
                                                 "single_output",
                                                 "other_input_is_from_input",
                                                 "to_runtime_input",
                                                 "latest_input_first",
                                                 "other_inputs_ready",
                                                 "siblings",
                                                 "kernel_type",
                                                 "note"};
        for (const auto& [key, _] : r.items())
            if (!known.count(key))
                reader.fail(
                    pointer + "/" + key,
                    "unknown field; expected one of name, from, from_kernel, from_kernel_type, to, "
                    "to_input, single_consumer, single_output, "
                    "other_input_is_from_input, to_runtime_input, latest_input_first, "
                    "other_inputs_ready, siblings, kernel_type, note");
        FusionRule rule;
        rule.name = reader.string(r, pointer, "name", true);
        rule.from = reader.ops(r, pointer, "from");
        rule.from_kernel = reader.ops(r, pointer, "from_kernel");
        rule.from_kernel_type = reader.ops(r, pointer, "from_kernel_type");
        rule.to = reader.ops(r, pointer, "to");
        if (const auto* index = reader.member(r, pointer, "to_input", json::value_t::number_integer,
                                              "an input index", false)) {
            rule.to_input = index->get<int>();
            if (rule.to_input < 0)
                reader.fail(pointer + "/to_input", "expected an input index >= 0");
        }
        rule.single_consumer = reader.boolean(r, pointer, "single_consumer");
        rule.single_output = reader.boolean(r, pointer, "single_output");
        rule.other_input_is_from_input = reader.boolean(r, pointer, "other_input_is_from_input");
        if (const auto* index =
                reader.member(r, pointer, "to_runtime_input", json::value_t::number_integer,
                              "an input index", false)) {
            rule.to_runtime_input = index->get<int>();
            if (rule.to_runtime_input < 0)
                reader.fail(pointer + "/to_runtime_input", "expected an input index >= 0");
        }
        rule.latest_input_first = reader.ops(r, pointer, "latest_input_first");
        rule.other_inputs_ready = reader.boolean(r, pointer, "other_inputs_ready");
        rule.siblings = reader.boolean(r, pointer, "siblings");
        rule.kernel_type = reader.string(r, pointer, "kernel_type", false);
        set.rules.push_back(std::move(rule));
    }
    if (const auto* section = reader.member(root, "", "conv_kernel_types", json::value_t::object,
                                            "an object describing conv kernel types", false)) {
        set.conv_kernel_types = parse_conv_kernel_types(reader, *section);
        set.gpu_family = set.conv_kernel_types->default_gpu_family;
    }
    if (const auto* launches = reader.member(root, "", "launches", json::value_t::object,
                                             "an object op -> count", false)) {
        for (const auto& [op, count] : launches->items()) {
            if (!count.is_number_integer() || count.get<int>() < 1)
                reader.fail("/launches/" + op, "expected a whole number >= 1");
            set.launches[op] = count.get<int>();
        }
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
