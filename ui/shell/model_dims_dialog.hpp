// The dims a model is read with (docs/importer.md, "Symbolic dims"): one line of words such as
// "decode=1024", "prefill=512", "batch=2" or "s0=4", as the CLI's --decode, --prefill, --batch
// and --dim take them. A language-model decoder opens only with its token counts bound.
#pragma once

#include "core/graph/dim_bindings.hpp"

#include <QDialog>

class QLabel;
class QLineEdit;

namespace cleave::ui {

class ModelDimsDialog : public QDialog {
    Q_OBJECT

public:
    // `model`: the file's name, for the title; `current`: the bindings shown to start with.
    ModelDimsDialog(const QString& model, const graph::DimBindings& current,
                    QWidget* parent = nullptr);

    QLineEdit* dimsEdit() const { return edit_; }
    QLabel* problemLabel() const { return problem_; }
    // What was accepted (the starting bindings until then).
    const graph::DimBindings& bindings() const { return bindings_; }

    // Closes only when the text parses; otherwise says why under the field.
    void accept() override;

private:
    QLineEdit* edit_;
    QLabel* problem_;
    graph::DimBindings bindings_;
};

} // namespace cleave::ui
