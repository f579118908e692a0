#include "ui/document/cluster_commands.hpp"

#include "ui/document/cluster_document.hpp"

#include <utility>

namespace cleave::ui {

ChangeClusterCommand::ChangeClusterCommand(ClusterDocument* document, device::Cluster before,
                                           device::Cluster after, const QString& text)
    : QUndoCommand(text), document_(document), before_(std::move(before)),
      after_(std::move(after)) {}

void ChangeClusterCommand::undo() {
    document_->show(before_);
}

void ChangeClusterCommand::redo() {
    document_->show(after_);
}

} // namespace cleave::ui
