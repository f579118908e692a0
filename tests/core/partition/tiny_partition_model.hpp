// A four-kernel model with a skip connection, and a three-host cluster with figures chosen so
// every cost can be computed by hand (mapping_costs_test, mapping_file_test).
//   x -> relu0 -> a -> matmul1 (W 256x256) -> b -> relu2 -> c -> add3 (a + c) -> d
// Every tensor is 1x256 float (1024 bytes); W holds 262,144 bytes.
#pragma once

#include "../graph/onnx_builder.hpp"
#include "core/device/cluster.hpp"
#include "core/device/device_library.hpp"
#include "core/fusion/kernel_graph.hpp"
#include "core/graph/onnx_import.hpp"

namespace cleave::test {

// The model as an ONNX file holds it, for tests that write it out.
inline std::vector<std::uint8_t> tiny_partition_model_bytes() {
    OnnxBuilder b;
    b.input("x", {1, 256});
    b.initializer("W", {256, 256});
    b.node("Relu", {"x"}, {"/blk/a"}, "relu0");
    b.node("MatMul", {"/blk/a", "W"}, {"/blk/b"}, "matmul1");
    b.node("Relu", {"/blk/b"}, {"/blk/c"}, "relu2");
    b.node("Add", {"/blk/a", "/blk/c"}, {"d"}, "add3");
    b.output("d");
    return b.bytes();
}

inline graph::Model tiny_partition_model() {
    return graph::load_model_from_bytes(tiny_partition_model_bytes(), "tiny.onnx");
}

// One kernel per node.
inline fusion::KernelGraph tiny_kernels(const graph::Model& model) {
    const auto edges = fusion::node_edges(model);
    return fusion::group_kernels(model, edges, std::vector<bool>(edges.size(), false));
}

// Hosts h1, h2, h3, each a Jetson Xavier NX whose GPU draws 10 W busy and whose network 2 W;
// 1 Gbit/s + 100 us between hosts, except h1-h3: 0.1 Gbit/s + 2000 us. PEs in order:
// h1_arm012345, h1_gpu, h2_arm012345, h2_gpu, h3_arm012345, h3_gpu.
inline device::Cluster tiny_cluster() {
    auto nx = *device::library_device("jetson-xavier-nx");
    for (auto& pe : nx.processing_elements)
        pe.busy_w = pe.kind == device::PeKind::gpu ? 10.0 : 5.0;
    nx.power->communication_w = 2.0;
    std::vector<device::ClusterHost> hosts;
    for (const char* host : {"h1", "h2", "h3"})
        hosts.push_back({host, nx.id, nx, ""});
    return device::make_cluster("tiny.cluster.json", hosts, device::Link{1.0, 100.0},
                                {device::LinkPair{"h1", "h3", device::Link{0.1, 2000.0}}});
}

} // namespace cleave::test
