// Every kind of file a user can hand Cleave, read as the command or the studio that takes it
// reads it: the fuzz targets, the replay of tests/data/regressions and the mutation test's
// read_user_file tool share these. A file must be read or refused with an InputError; a crash,
// a hang or any other exception is a bug.
#pragma once

#include <string>
#include <vector>

namespace cleave::test {

// What the readers read besides the file: a model and a cluster its content refers to.
struct ReaderFixtures {
    std::string model;   // an ONNX model (mapping.json, dse-state)
    std::string cluster; // a cluster file holding the mapping's and the DSE state's PEs
};

// The fixtures the examples of tests/data/readers were written against: resnet18 for a
// mapping (tests/data/autodice), squeezenet1_1 for the rest, examples/clusters/nx8.cluster.json.
ReaderFixtures fixtures_for(const std::string& kind, const std::string& models_dir,
                            const std::string& clusters_dir);

// predictor, device, bundle, cluster, platform, mapping, project, rules, dataset, dse-state.
const std::vector<std::string>& user_file_kinds();

// The kind a regression file is for, by the start of its name ("predictor-mutation-14.json.xz"
// is a predictor); "" when none.
std::string kind_of_file(const std::string& file_name);

// Reads `path` as a file of `kind` and uses what it read the way the product does (a predictor
// predicts a model, a rule set fuses one, a project restores its model, mapping and DSE
// state). A bundle is imported into the user library ($XDG_DATA_HOME). Throws the reader's
// InputError.
void read_user_file(const std::string& kind, const std::string& path,
                    const ReaderFixtures& fixtures);

} // namespace cleave::test
