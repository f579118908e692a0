// The core values the studio shares between threads and views, each held as a shared pointer to
// const: made once (loaded, fused, read), then only read, so a view or a worker can keep one alive
// while the document moves on to the next.
#pragma once

#include "core/device/cluster.hpp"
#include "core/fusion/kernel_graph.hpp"
#include "core/graph/model.hpp"
#include "core/profile/measured_dataset.hpp"

#include <QMetaType>
#include <memory>

namespace cleave::ui {

using ModelPtr = std::shared_ptr<const graph::Model>;
using KernelGraphPtr = std::shared_ptr<const fusion::KernelGraph>;
using ClusterPtr = std::shared_ptr<const device::Cluster>;
using MeasuredDatasetPtr = std::shared_ptr<const profile::MeasuredDataset>;
using MeasuredRunPtr = std::shared_ptr<const profile::MeasuredRun>;

} // namespace cleave::ui

Q_DECLARE_METATYPE(cleave::ui::ModelPtr)
Q_DECLARE_METATYPE(cleave::ui::MeasuredDatasetPtr)
