// The genes NSGA-II varies and the mappings they stand for. Every gene is an integer (pagmo's
// nsga2 treats the last get_nix() genes as integers; here all of them). Over n PEs and K kernels:
// - SPE: n - 1 split genes in [0, K], then (when PEs are assigned) n PE genes in [0, n - 1].
//   The distinct split genes strictly inside (0, K), sorted, are the cuts; 0 and K mean "no cut",
//   so a mapping may use fewer than n segments. Segment s runs on the stage PE of PE gene s
//   (repeats allowed: one PE may run several segments); without PE genes segment s runs on stage
//   PE s. Adjacent segments on one PE are merged. Held to `cuts` (a decoder's layers), a split
//   gene is an index into them: cuts[g], where cuts.front() = 0 and cuts.back() = K mean no cut.
// - naive: K genes in [0, n - 1], the stage PE of every kernel.
#pragma once

#include "core/partition/mapping.hpp"

#include <random>
#include <utility>
#include <vector>

namespace cleave::dse {

enum class Encoding { spe, naive };

struct GeneLayout {
    Encoding encoding = Encoding::spe;
    int kernels = 0;        // K
    int pes = 0;            // n, the stage's PEs
    bool assign_pes = true; // SPE only: PE genes, else segment s on stage PE s
    // SPE: the only kernels a cut may fall before, ascending from 0 to K (a decoder's layer
    // starts); empty: any kernel.
    std::vector<int> cuts = {};

    int split_genes() const { return encoding == Encoding::spe ? pes - 1 : 0; }
    int pe_genes() const { return encoding == Encoding::naive ? kernels : assign_pes ? pes : 0; }
    int size() const { return split_genes() + pe_genes(); }
    // Lower and upper bounds per gene; every gene has lower < upper when K >= 2 and n >= 2.
    std::pair<std::vector<double>, std::vector<double>> bounds() const;
};

// `stage_pes[i]` is the cluster PE of stage PE i; the result names cluster PEs.
partition::Mapping decode_spe(const GeneLayout& layout, const std::vector<double>& genes,
                              const std::vector<int>& stage_pes);
partition::KernelAssignment decode_naive(const GeneLayout& layout, const std::vector<double>& genes,
                                         const std::vector<int>& stage_pes);
// The same kernels on the same PEs as split points with a PE per run of equal PEs.
partition::Mapping mapping_of(const partition::KernelAssignment& assignment);

// Genes of a smaller stage (`from`, same encoding and K) as genes of `to` (to.pes >= from.pes)
// that decode to the same mapping: SPE pads split genes with 0 (no cut) and PE genes with random
// PEs, which no segment uses; naive genes carry over as they are.
std::vector<double> widen_genes(const GeneLayout& from, const std::vector<double>& genes,
                                const GeneLayout& to, std::mt19937& random);

// SPE genes (with PE genes) that decode to `mapping`: its cut points (their indices in
// layout.cuts when held), then 0 (no cut); the stage index of each segment's PE, then random PEs,
// which no segment uses. The mapping must have at most layout.pes segments, each on one of
// `stage_pes`, and cut only at layout.cuts when it has them.
std::vector<double> encode_spe(const GeneLayout& layout, const partition::Mapping& mapping,
                               const std::vector<int>& stage_pes, std::mt19937& random);

std::vector<double> random_genes(const GeneLayout& layout, std::mt19937& random);

} // namespace cleave::dse
