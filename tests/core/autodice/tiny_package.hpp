// The four-kernel model of tiny_partition_model.hpp saved as a file (sub-models read its weights)
// and mapped onto the GPUs of h1, h2 and h3, one kernel, two, one: the AutoDiCE package of it has
// three ranks, rank 0 sending a to ranks 1 and 2, rank 1 sending c to rank 2.
#pragma once

#include "../partition/tiny_partition_model.hpp"
#include "core/autodice/export.hpp"
#include "core/graph/onnx_import.hpp"

#include <filesystem>
#include <fstream>

namespace cleave::test {

struct TinyPackageCase {
    graph::Model model;
    fusion::KernelGraph kernels;
    device::Cluster cluster;
    partition::KernelAssignment assignment;
};

// The model written to `folder`/tiny.onnx and loaded from there.
inline TinyPackageCase tiny_package_case(const std::filesystem::path& folder) {
    const auto file = folder / "tiny.onnx";
    const auto bytes = tiny_partition_model_bytes();
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    TinyPackageCase c{graph::load_model(file), {}, tiny_cluster(), {}};
    c.kernels = tiny_kernels(c.model);
    c.assignment = partition::assignment_of({{1, 3}, {1, 3, 5}}, 4);
    return c;
}

inline autodice::Package tiny_package(const TinyPackageCase& c) {
    return autodice::make_package(
        c.model, autodice::package_parts(c.model, c.kernels, c.assignment, c.cluster), &c.cluster,
        "test");
}

} // namespace cleave::test
