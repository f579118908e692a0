// Fusion rule sets: which producer/consumer edges a runtime fuses into one kernel, stored as
// data (resources/fusion/*.json, docs/fusion-rules.md) so a user can copy and edit one.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace cleave::fusion {

// One edge pattern u -> v. Every condition given must hold; rules apply in file order, each
// over all edges in topological order, as a runtime's transformer passes do.
struct FusionRule {
    std::string name;
    std::set<std::string> from;             // op of u (empty: any)
    std::set<std::string> from_kernel;      // op of the anchor of u's kernel (empty: any)
    std::set<std::string> from_kernel_type; // type a rule gave u's kernel (empty: any)
    std::set<std::string> to;               // op of v (empty: any)
    int to_input = -1;                      // v reads u's output at this input (-1: any)
    bool single_consumer = false;           // u's output feeds only v and is not a graph output
    bool single_output = false;             // u has one output
    bool other_input_is_from_input = false; // v's other input is u's first input: x * f(x)
    // Instead of u -> v: two nodes of a `to` op reading the same tensor (at to_input) become one
    // kernel, as when a runtime turns sibling Slices into one Split.
    bool siblings = false;
    std::string kernel_type; // the fused kernel's type ("" keeps it)
};

struct RuleSet {
    std::string name;
    std::string runtime;         // what the rules describe, for people
    std::string file;            // where it was read from ("built-in" for shipped sets)
    bool fold_constants = false; // nodes computable at load time join their consumer's kernel
    std::vector<FusionRule> rules;
    std::map<std::string, int> launches; // op -> kernels the runtime runs for one such node
};

// Parses a rule file; throws InputError(file, JSON pointer, expected) on any mistake.
RuleSet parse_rule_set(const std::string& json_text, const std::string& file);
RuleSet load_rule_set(const std::string& path);

// The shipped sets (ort-cpu, tflite-gpu, tensorrt-like), compiled into the program.
std::vector<std::string> builtin_rule_set_names();
// A shipped name or a path to a rule file; InputError listing the names otherwise.
RuleSet find_rule_set(const std::string& name_or_path);

} // namespace cleave::fusion
