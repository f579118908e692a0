// The partition view's undo commands, one per kind of edit. Each keeps the mapping before and
// after it (a mapping is a few dozen integers), so undo and redo simply show one of the two.
#pragma once

#include "core/partition/mapping.hpp"

#include <QUndoCommand>

namespace cleave::ui {

class PartitionDocument;

enum class MappingCommandId { MoveSplit = 1 };

class ChangeMappingCommand : public QUndoCommand {
public:
    ChangeMappingCommand(PartitionDocument* document, partition::Mapping before,
                         partition::Mapping after, const QString& text);

    void undo() override;
    void redo() override;
    bool changesNothing() const;

protected:
    PartitionDocument* document_;
    partition::Mapping before_;
    partition::Mapping after_;
};

// One handle moved; the moves of one mouse drag merge into one command.
class MoveSplitCommand : public ChangeMappingCommand {
public:
    MoveSplitCommand(PartitionDocument* document, int split, int point, int drag);

    int id() const override { return static_cast<int>(MappingCommandId::MoveSplit); }
    bool mergeWith(const QUndoCommand* other) override;

private:
    int split_;
    int drag_;
};

class AddSplitCommand : public ChangeMappingCommand {
public:
    AddSplitCommand(PartitionDocument* document, int point, int pe);
};

class RemoveSplitCommand : public ChangeMappingCommand {
public:
    RemoveSplitCommand(PartitionDocument* document, int split);
};

class AssignSegmentCommand : public ChangeMappingCommand {
public:
    AssignSegmentCommand(PartitionDocument* document, int segment, int pe);
};

class ReplaceMappingCommand : public ChangeMappingCommand {
public:
    ReplaceMappingCommand(PartitionDocument* document, partition::Mapping mapping,
                          const QString& what);
};

} // namespace cleave::ui
