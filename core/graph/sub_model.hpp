// Sub-models: a subset of a model's nodes written as a valid ONNX model of its own, with the
// weights it reads and the tensors that cross its border as inputs and outputs. Written by
// streaming: the small structure is serialized with protobuf, large weights go from the mapped
// model file straight to the new file, so nothing big is copied in memory.
#pragma once

#include "model.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace cleave::graph {

struct SubModelPlan {
    std::vector<int> nodes;        // ascending (topological)
    std::vector<int> inputs;       // tensors read here, produced elsewhere: graph inputs, then
                                   // activations, in the order the nodes first read them
    std::vector<int> outputs;      // tensors produced here and read elsewhere or graph outputs,
                                   // in production order
    std::vector<int> initializers; // read here, in the order the nodes first read them
};

// Throws InputError (file = model.file, place = the node) for a node index out of range or
// repeated, and for nodes with subgraph attributes (If, Loop, Scan), whose captured names a
// sub-model cannot carry over.
SubModelPlan plan_sub_model(const Model& model, std::vector<int> nodes);

enum class SubModelNaming {
    model,   // tensors and nodes keep the model's names
    autodice // AutoDiCE's: '/' -> '_' in every tensor name, nodes named by autodice_name
};

// Where write_sub_model puts the external data of the sub-model `file`: FILE.data beside it.
std::filesystem::path sub_model_data_file(const std::filesystem::path& file);

// A tensor's name as a sub-model written with `naming` calls it.
std::string sub_model_tensor_name(const std::string& name, SubModelNaming naming);

// Writes the plan's nodes as an ONNX model (the model's IR version, opsets and functions; its
// value_info for every tensor the sub-model holds) to `file`, synced before returning; with
// `sync` false the writeback is only started and the caller must fsync the file. Initializers
// the model keeps as external data stay external: their bytes go to sub_model_data_file(file)
// (sparse where the model's file was), which the caller syncs too.
// Returns the bytes of `file`. Throws InputError naming the file when it cannot be written,
// naming the model when an external data file it needs is missing, and naming the model and
// tensor when two tensors would get the same AutoDiCE name.
std::uint64_t write_sub_model(const Model& model, const SubModelPlan& plan,
                              const std::filesystem::path& file, SubModelNaming naming,
                              bool sync = true);

// The names of a model file's graph inputs (initializers left out) and outputs, read without
// importing it: a sub-model whose file leaves dims symbolic names them all the same. Throws
// InputError naming the file when it is no ONNX model.
struct ModelIo {
    std::vector<std::string> inputs, outputs;
};
ModelIo read_model_io(const std::filesystem::path& file);

} // namespace cleave::graph
