#include "ui/graph/graph_page.hpp"

#include "ui/document/studio_document.hpp"
#include "ui/graph/graph_scene.hpp"
#include "ui/graph/graph_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QShortcut>
#include <QSignalBlocker>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace cleave::ui {

namespace {

QToolButton* toolButton(QWidget* parent, const QString& text, const QString& tip) {
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    return button;
}

} // namespace

GraphPage::GraphPage(StudioDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), view_(new GraphView(this)), searchEdit_(new QLineEdit(this)),
      matchLabel_(new QLabel(this)), colours_(new QComboBox(this)),
      previous_(toolButton(this, tr("Previous"), tr("Previous match (Shift+Enter)"))),
      next_(toolButton(this, tr("Next"), tr("Next match (Enter)"))) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 0);
    auto* row = new QHBoxLayout;
    searchEdit_->setPlaceholderText(tr("Find nodes by name or op; every term must match (Ctrl+F)"));
    searchEdit_->setClearButtonEnabled(true);
    searchEdit_->setAcceptDrops(false); // a dropped model opens; its URL is no search text
    previous_->setIcon(style()->standardIcon(QStyle::SP_ArrowUp));
    next_->setIcon(style()->standardIcon(QStyle::SP_ArrowDown));
    previous_->setEnabled(false);
    next_->setEnabled(false);
    row->addWidget(searchEdit_, 1);
    row->addWidget(matchLabel_);
    row->addWidget(previous_);
    row->addWidget(next_);
    row->addSpacing(12);
    row->addWidget(new QLabel(tr("Colour:"), this));
    colours_->addItem(tr("Kernel latency"));
    colours_->addItem(tr("Op category"));
    colours_->setToolTip(tr("Colour nodes by their kernel's predicted latency on the device "
                            "chosen in the Kernels dock, or by op category"));
    row->addWidget(colours_);
    row->addSpacing(12);
    auto* zoomOut = toolButton(this, tr("−"), tr("Zoom out (−)"));
    auto* zoomIn = toolButton(this, tr("+"), tr("Zoom in (+)"));
    auto* actual = toolButton(this, tr("1:1"), tr("Actual size (0)"));
    auto* fit = toolButton(this, tr("Fit"), tr("Fit the whole graph (F)"));
    for (auto* button : {zoomOut, zoomIn, actual, fit})
        row->addWidget(button);
    row->addSpacing(12);
    collapse_ = toolButton(this, tr("Collapse"),
                           tr("Draw every fused kernel as one box over its nodes; double-click a "
                              "kernel to collapse or expand it alone"));
    collapse_->setCheckable(true);
    connect(collapse_, &QToolButton::toggled, view_, &GraphView::setKernelsCollapsed);
    row->addWidget(collapse_);
    // Large models and those whose layers repeat are laid out in blocks by name scope; only
    // they have this button.
    foldBlocks_ = toolButton(this, tr("Fold Blocks"),
                             tr("Draw every block (a repeated layer's or a large model's name "
                                "scope) as one box; double-click a block to open or fold it "
                                "alone"));
    foldBlocks_->setCheckable(true);
    foldBlocks_->hide();
    connect(foldBlocks_, &QToolButton::toggled, view_, &GraphView::setBlocksCollapsed);
    connect(view_, &GraphView::layoutFinished, this, [this] {
        const QSignalBlocker quiet(foldBlocks_);
        foldBlocks_->setChecked(false);
        foldBlocks_->setVisible(!view_->graphScene()->blockItems().isEmpty());
    });
    row->addWidget(foldBlocks_);
    layout->addLayout(row);
    layout->addWidget(view_, 1);

    connect(searchEdit_, &QLineEdit::textChanged, view_, &GraphView::search);
    connect(searchEdit_, &QLineEdit::returnPressed, view_, &GraphView::findNext);
    connect(previous_, &QToolButton::clicked, view_, &GraphView::findPrevious);
    connect(next_, &QToolButton::clicked, view_, &GraphView::findNext);
    new QShortcut(QKeySequence(Qt::SHIFT | Qt::Key_Return), searchEdit_, view_,
                  &GraphView::findPrevious, Qt::WidgetShortcut);
    new QShortcut(QKeySequence(Qt::SHIFT | Qt::Key_Enter), searchEdit_, view_,
                  &GraphView::findPrevious, Qt::WidgetShortcut);
    new QShortcut(QKeySequence(Qt::Key_Escape), searchEdit_, searchEdit_, &QLineEdit::clear,
                  Qt::WidgetShortcut);
    new QShortcut(QKeySequence::FindNext, this, view_, &GraphView::findNext,
                  Qt::WidgetWithChildrenShortcut);
    new QShortcut(QKeySequence::FindPrevious, this, view_, &GraphView::findPrevious,
                  Qt::WidgetWithChildrenShortcut);
    connect(zoomOut, &QToolButton::clicked, view_, [this] { view_->zoomBy(1 / 1.25); });
    connect(zoomIn, &QToolButton::clicked, view_, [this] { view_->zoomBy(1.25); });
    connect(actual, &QToolButton::clicked, view_, &GraphView::zoomToActualSize);
    connect(fit, &QToolButton::clicked, view_, &GraphView::fitGraph);
    connect(view_, &GraphView::matchesChanged, this, &GraphPage::showMatches);
    connect(colours_, &QComboBox::currentIndexChanged, view_,
            [this](int index) { view_->setColourByLatency(index == 0); });
    observe();
}

QString GraphPage::matchText() const {
    return matchLabel_->text();
}

void GraphPage::focusSearch() {
    searchEdit_->setFocus(Qt::ShortcutFocusReason);
    searchEdit_->selectAll();
}

void GraphPage::showMatches(int current, int count) {
    previous_->setEnabled(count > 1);
    next_->setEnabled(count > 1);
    if (searchEdit_->text().trimmed().isEmpty())
        matchLabel_->clear();
    else if (count == 0)
        matchLabel_->setText(tr("no match"));
    else
        matchLabel_->setText(tr("%1 of %2").arg(current + 1).arg(count));
}

// The document's kernels, latency and selection on show; a pick in the view selects.
void GraphPage::observe() {
    connect(document_, &StudioDocument::kernelsChanged, this,
            [this] { view_->setGraph(document_->model(), document_->kernels()); });
    connect(document_, &StudioDocument::latencyChanged, view_, &GraphView::setLatency);
    const auto picked = [this](Selection selection) {
        picking_ = true;
        document_->select(selection);
        picking_ = false;
    };
    connect(view_, &GraphView::nodeActivated, this, [picked](int node) { picked({node, -1}); });
    connect(view_, &GraphView::kernelActivated, this,
            [picked](int kernel) { picked({-1, kernel}); });
    connect(document_, &StudioDocument::selectionChanged, this, [this](const Selection& selection) {
        if (picking_)
            return;
        if (selection.node >= 0)
            view_->selectNode(selection.node);
        else if (selection.kernel >= 0)
            view_->selectKernel(selection.kernel);
    });
}

} // namespace cleave::ui
