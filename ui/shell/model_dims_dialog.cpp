#include "ui/shell/model_dims_dialog.hpp"

#include "core/input_error.hpp"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace cleave::ui {

ModelDimsDialog::ModelDimsDialog(const QString& model, const graph::DimBindings& current,
                                 QWidget* parent)
    : QDialog(parent), edit_(new QLineEdit(this)), problem_(new QLabel(this)), bindings_(current) {
    setWindowTitle(tr("Model Dims — %1").arg(model));
    auto* help = new QLabel(
        tr("Bind the model's symbolic dims. For a language-model decoder: decode=L (one new "
           "token after L cached ones) or prefill=N (N new tokens, none cached), and batch=B "
           "(1 when not given). Any dim by its name: sequence_length=128, s0=1."),
        this);
    help->setWordWrap(true);
    edit_->setText(QString::fromStdString(graph::dim_bindings_text(current)));
    edit_->setPlaceholderText(tr("decode=1024 batch=1"));
    problem_->setWordWrap(true);
    problem_->setTextFormat(Qt::PlainText);
    problem_->hide();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &ModelDimsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(help);
    layout->addWidget(edit_);
    layout->addWidget(problem_);
    layout->addWidget(buttons);
    resize(480, sizeHint().height());
}

void ModelDimsDialog::accept() {
    try {
        bindings_ = graph::parse_dim_bindings_text(edit_->text().toStdString());
    } catch (const InputError& e) {
        problem_->setText(QString::fromStdString(e.what()));
        problem_->show();
        return;
    }
    QDialog::accept();
}

} // namespace cleave::ui
