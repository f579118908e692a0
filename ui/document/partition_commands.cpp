#include "ui/document/partition_commands.hpp"

#include "ui/document/partition_document.hpp"

#include <utility>

namespace cleave::ui {

namespace {

QString keyOf(const PartitionDocument* document, int pe) {
    return QString::fromStdString(
        document->inputs()->request.cluster->pes[static_cast<std::size_t>(pe)].key);
}

partition::Mapping movedSplit(partition::Mapping mapping, int split, int point) {
    mapping.points[static_cast<std::size_t>(split)] = point;
    return mapping;
}

partition::Mapping addedSplit(const PartitionDocument* document, int point, int pe) {
    partition::Mapping mapping = document->mapping();
    const auto segment = static_cast<std::size_t>(document->segmentOf(point));
    mapping.points.insert(mapping.points.begin() + static_cast<std::ptrdiff_t>(segment), point);
    mapping.pes.insert(mapping.pes.begin() + static_cast<std::ptrdiff_t>(segment) + 1, pe);
    return mapping;
}

partition::Mapping removedSplit(partition::Mapping mapping, int split) {
    mapping.points.erase(mapping.points.begin() + split);
    mapping.pes.erase(mapping.pes.begin() + split + 1);
    return mapping;
}

partition::Mapping assignedSegment(partition::Mapping mapping, int segment, int pe) {
    mapping.pes[static_cast<std::size_t>(segment)] = pe;
    return mapping;
}

} // namespace

ChangeMappingCommand::ChangeMappingCommand(PartitionDocument* document, partition::Mapping before,
                                           partition::Mapping after, const QString& text)
    : QUndoCommand(text), document_(document), before_(std::move(before)),
      after_(std::move(after)) {}

void ChangeMappingCommand::undo() {
    document_->applyMapping(before_);
}

void ChangeMappingCommand::redo() {
    document_->applyMapping(after_);
}

bool ChangeMappingCommand::changesNothing() const {
    return before_.points == after_.points && before_.pes == after_.pes;
}

MoveSplitCommand::MoveSplitCommand(PartitionDocument* document, int split, int point, int drag)
    : ChangeMappingCommand(document, document->mapping(),
                           movedSplit(document->mapping(), split, point),
                           QObject::tr("Move split %1 to kernel %2").arg(split + 1).arg(point)),
      split_(split), drag_(drag) {}

bool MoveSplitCommand::mergeWith(const QUndoCommand* other) {
    const auto* move = static_cast<const MoveSplitCommand*>(other);
    if (drag_ < 0 || move->drag_ != drag_ || move->split_ != split_)
        return false;
    after_ = move->after_;
    setText(move->text());
    setObsolete(changesNothing()); // dragged back to where it started
    return true;
}

AddSplitCommand::AddSplitCommand(PartitionDocument* document, int point, int pe)
    : ChangeMappingCommand(document, document->mapping(), addedSplit(document, point, pe),
                           QObject::tr("Add split at kernel %1").arg(point)) {}

RemoveSplitCommand::RemoveSplitCommand(PartitionDocument* document, int split)
    : ChangeMappingCommand(document, document->mapping(), removedSplit(document->mapping(), split),
                           QObject::tr("Remove split at kernel %1")
                               .arg(document->mapping().points[static_cast<std::size_t>(split)])) {}

AssignSegmentCommand::AssignSegmentCommand(PartitionDocument* document, int segment, int pe)
    : ChangeMappingCommand(
          document, document->mapping(), assignedSegment(document->mapping(), segment, pe),
          QObject::tr("Run segment %1 on %2").arg(segment + 1).arg(keyOf(document, pe))) {}

ReplaceMappingCommand::ReplaceMappingCommand(PartitionDocument* document,
                                             partition::Mapping mapping, const QString& what)
    : ChangeMappingCommand(document, document->mapping(), std::move(mapping), what) {}

} // namespace cleave::ui
