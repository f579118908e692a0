#include "split_point_encoding.hpp"

#include <algorithm>
#include <cmath>

namespace cleave::dse {

namespace {

int gene(double value) {
    return static_cast<int>(std::lround(value));
}

} // namespace

std::pair<std::vector<double>, std::vector<double>> GeneLayout::bounds() const {
    std::vector<double> lower, upper;
    for (int i = 0; i < split_genes(); ++i) {
        lower.push_back(0);
        upper.push_back(cuts.empty() ? kernels : static_cast<int>(cuts.size()) - 1);
    }
    for (int i = 0; i < pe_genes(); ++i) {
        lower.push_back(0);
        upper.push_back(pes - 1);
    }
    return {lower, upper};
}

partition::Mapping decode_spe(const GeneLayout& layout, const std::vector<double>& genes,
                              const std::vector<int>& stage_pes) {
    std::vector<int> cuts;
    cuts.reserve(static_cast<std::size_t>(layout.split_genes()));
    for (int i = 0; i < layout.split_genes(); ++i) {
        int cut = gene(genes[static_cast<std::size_t>(i)]);
        if (!layout.cuts.empty())
            cut = layout.cuts[static_cast<std::size_t>(
                std::clamp(cut, 0, static_cast<int>(layout.cuts.size()) - 1))];
        if (cut > 0 && cut < layout.kernels)
            cuts.push_back(cut);
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());

    partition::Mapping mapping;
    const auto pe_of_segment = [&](std::size_t s) {
        const int index = layout.assign_pes
                              ? gene(genes[static_cast<std::size_t>(layout.split_genes()) + s])
                              : static_cast<int>(s);
        return stage_pes[static_cast<std::size_t>(std::clamp(index, 0, layout.pes - 1))];
    };
    mapping.pes.push_back(pe_of_segment(0));
    for (std::size_t s = 1; s <= cuts.size(); ++s) {
        const int pe = pe_of_segment(s);
        if (pe == mapping.pes.back())
            continue; // the same PE runs on: no cut
        mapping.points.push_back(cuts[s - 1]);
        mapping.pes.push_back(pe);
    }
    return mapping;
}

partition::KernelAssignment decode_naive(const GeneLayout& layout, const std::vector<double>& genes,
                                         const std::vector<int>& stage_pes) {
    partition::KernelAssignment assignment;
    assignment.pe_of_kernel.resize(static_cast<std::size_t>(layout.kernels));
    for (std::size_t k = 0; k < assignment.pe_of_kernel.size(); ++k)
        assignment.pe_of_kernel[k] =
            stage_pes[static_cast<std::size_t>(std::clamp(gene(genes[k]), 0, layout.pes - 1))];
    return assignment;
}

partition::Mapping mapping_of(const partition::KernelAssignment& assignment) {
    partition::Mapping mapping;
    for (std::size_t k = 0; k < assignment.pe_of_kernel.size(); ++k) {
        const int pe = assignment.pe_of_kernel[k];
        if (mapping.pes.empty() || pe != mapping.pes.back()) {
            if (!mapping.pes.empty())
                mapping.points.push_back(static_cast<int>(k));
            mapping.pes.push_back(pe);
        }
    }
    return mapping;
}

std::vector<double> widen_genes(const GeneLayout& from, const std::vector<double>& genes,
                                const GeneLayout& to, std::mt19937& random) {
    if (to.encoding == Encoding::naive)
        return genes;
    std::vector<double> wide(genes.begin(), genes.begin() + from.split_genes());
    wide.resize(static_cast<std::size_t>(to.split_genes()), 0.0);
    if (to.assign_pes) {
        wide.insert(wide.end(), genes.begin() + from.split_genes(), genes.end());
        std::uniform_int_distribution<int> pe(0, to.pes - 1);
        while (static_cast<int>(wide.size()) < to.size())
            wide.push_back(pe(random));
    }
    return wide;
}

std::vector<double> encode_spe(const GeneLayout& layout, const partition::Mapping& mapping,
                               const std::vector<int>& stage_pes, std::mt19937& random) {
    std::vector<double> genes;
    for (const int point : mapping.points)
        genes.push_back(layout.cuts.empty()
                            ? point
                            : static_cast<double>(
                                  std::lower_bound(layout.cuts.begin(), layout.cuts.end(), point) -
                                  layout.cuts.begin()));
    genes.resize(static_cast<std::size_t>(layout.split_genes()), 0.0);
    for (const int pe : mapping.pes)
        genes.push_back(static_cast<double>(std::find(stage_pes.begin(), stage_pes.end(), pe) -
                                            stage_pes.begin()));
    std::uniform_int_distribution<int> unused(0, layout.pes - 1);
    while (static_cast<int>(genes.size()) < layout.size())
        genes.push_back(unused(random));
    return genes;
}

std::vector<double> random_genes(const GeneLayout& layout, std::mt19937& random) {
    const auto [lower, upper] = layout.bounds();
    std::vector<double> genes(lower.size());
    for (std::size_t i = 0; i < genes.size(); ++i)
        genes[i] = std::uniform_int_distribution<int>(static_cast<int>(lower[i]),
                                                      static_cast<int>(upper[i]))(random);
    return genes;
}

} // namespace cleave::dse
