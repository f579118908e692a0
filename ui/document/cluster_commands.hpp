// The Cluster tab's undo command: every edit keeps the cluster before and after it (a few hosts
// and links), so undo and redo show one of the two.
#pragma once

#include "core/device/cluster.hpp"

#include <QUndoCommand>

namespace cleave::ui {

class ClusterDocument;

class ChangeClusterCommand : public QUndoCommand {
public:
    ChangeClusterCommand(ClusterDocument* document, device::Cluster before, device::Cluster after,
                         const QString& text);

    void undo() override;
    void redo() override;

private:
    ClusterDocument* document_;
    device::Cluster before_;
    device::Cluster after_;
};

} // namespace cleave::ui
