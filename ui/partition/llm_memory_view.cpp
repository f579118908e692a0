#include "ui/partition/llm_memory_view.hpp"

#include "ui/document/partition_document.hpp"
#include "ui/tables/latency_format.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>

namespace cleave::ui {

namespace {

constexpr int kMargin = 6;
// Without a recorded context_length the slider reaches this far.
constexpr std::int64_t kDefaultLongest = 131072;

QString gigabytes(std::int64_t bytes) {
    return QLocale().toString(static_cast<double>(bytes) / 1e9, 'f', 2) + " GB";
}

int longestContext(const PartitionDocument& d) {
    return static_cast<int>(std::min<std::int64_t>(
        d.maxContext() > 0 ? d.maxContext() : kDefaultLongest, INT_MAX));
}

} // namespace

LlmMemoryBars::LlmMemoryBars(PartitionDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
    setObjectName("llmMemoryBars");
    connect(document_, &PartitionDocument::llmMemoryChanged, this, [this] {
        updateGeometry();
        update();
    });
}

QColor LlmMemoryBars::partColor(int part) {
    switch (part) {
    case 0: return QColor(0x1f, 0x77, 0xb4);  // weights
    case 1: return QColor(0xff, 0x7f, 0x0e);  // KV cache
    default: return QColor(0x7f, 0x7f, 0x7f); // activations
    }
}

QSize LlmMemoryBars::sizeHint() const {
    const auto& memory = document_->llmMemory();
    const int rows = memory ? static_cast<int>(memory->pools.size()) : 0;
    return {360, 2 * kMargin + rows * 2 * (fontMetrics().height() + 4)};
}

// Per pool: its name and figures on one line, the stacked bar under it, the usable capacity as
// the bar's full width (a pool over it is drawn to its own total, the capacity marked).
void LlmMemoryBars::paintEvent(QPaintEvent*) {
    const auto& memory = document_->llmMemory();
    if (!memory)
        return;
    QPainter painter(this);
    const int line = fontMetrics().height() + 4;
    const int width = this->width() - 2 * kMargin;
    int y = kMargin;
    for (const auto& pool : memory->pools) {
        const std::int64_t used = pool.used.total();
        const std::int64_t usable = pool.capacity_bytes
                                        ? *pool.capacity_bytes - pool.reserve_bytes
                                        : std::max<std::int64_t>(used, 1);
        const double full = static_cast<double>(std::max(used, usable));
        QString text = QString::fromStdString(pool.name) + "  " + gigabytes(used) + " / " +
                       (pool.capacity_bytes ? gigabytes(usable) : tr("capacity not known"));
        if (pool.largest_context)
            text += "  " + tr("longest context %1").arg(QLocale().toString(
                               static_cast<qlonglong>(*pool.largest_context)));
        painter.setPen(pool.fits ? palette().color(QPalette::WindowText) : overColor());
        painter.drawText(QRect(kMargin, y, width, line), Qt::AlignLeft | Qt::AlignVCenter,
                         fontMetrics().elidedText(text, Qt::ElideRight, width));
        y += line;
        const QRect bar(kMargin, y + 2, width, line - 6);
        painter.fillRect(bar, pool.fits ? palette().color(QPalette::AlternateBase)
                                        : overColor().lighter(170));
        double x = bar.left();
        const std::int64_t parts[] = {pool.used.weight_bytes, pool.used.kv_cache_bytes,
                                      pool.used.activation_bytes};
        for (int part = 0; part < 3; ++part) {
            const double w = bar.width() * static_cast<double>(parts[part]) / full;
            painter.fillRect(QRectF(x, bar.top(), w, bar.height()), partColor(part));
            x += w;
        }
        if (pool.capacity_bytes && !pool.fits) { // where the usable capacity ends
            const double at = bar.left() + bar.width() * static_cast<double>(usable) / full;
            painter.setPen(QPen(overColor(), 2));
            painter.drawLine(QPointF(at, bar.top() - 2), QPointF(at, bar.bottom() + 2));
        }
        y += line;
    }
}

LlmMemoryView::LlmMemoryView(PartitionDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), slider_(new QSlider(Qt::Horizontal, this)),
      context_(new QSpinBox(this)), sequences_(new QSpinBox(this)), prompt_(new QSpinBox(this)),
      generated_(new QSpinBox(this)), bars_(new LlmMemoryBars(document, this)),
      status_(new QLabel(this)), timing_(new QLabel(this)) {
    setObjectName("llmMemoryView");
    slider_->setObjectName("llmContextSlider");
    context_->setObjectName("llmContext");
    sequences_->setObjectName("llmSequences");
    status_->setObjectName("llmMemoryStatus");
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(kMargin, kMargin, kMargin, 0);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Context"), this));
    slider_->setToolTip(tr("The longest context cached, which sizes every KV cache"));
    row->addWidget(slider_, 1);
    context_->setSuffix(tr(" tokens"));
    context_->setGroupSeparatorShown(true);
    row->addWidget(context_);
    row->addSpacing(12);
    row->addWidget(new QLabel(tr("In flight"), this));
    sequences_->setToolTip(tr("Batches in flight at once through the pipeline, each with a KV "
                              "cache of its own"));
    sequences_->setRange(1, 1024);
    row->addWidget(sequences_);
    layout->addLayout(row);
    layout->addLayout(createReplyRow());
    layout->addWidget(timing_);
    auto* legend = new QLabel(tr("<span style='color:%1'>■</span> weights  "
                                 "<span style='color:%2'>■</span> KV cache  "
                                 "<span style='color:%3'>■</span> activations")
                                  .arg(LlmMemoryBars::partColor(0).name(),
                                       LlmMemoryBars::partColor(1).name(),
                                       LlmMemoryBars::partColor(2).name()),
                              this);
    layout->addWidget(legend);
    layout->addWidget(bars_);
    layout->addWidget(status_);
    layout->addStretch(1);

    connect(slider_, &QSlider::valueChanged, this, [this](int value) {
        document_->setContext(value);
    });
    connect(context_, &QSpinBox::valueChanged, this, [this](int value) {
        document_->setContext(value);
    });
    connect(sequences_, &QSpinBox::valueChanged, this, [this](int value) {
        auto w = document_->workload();
        w.sequences = value;
        document_->setWorkload(w);
    });
    connect(document_, &PartitionDocument::workloadChanged, this, &LlmMemoryView::showWorkload);
    connect(document_, &PartitionDocument::inputsChanged, this, &LlmMemoryView::showWorkload);
    connect(document_, &PartitionDocument::llmMemoryChanged, this, &LlmMemoryView::showMemory);
    connect(document_, &PartitionDocument::prefillChanged, this, &LlmMemoryView::showTiming);
    connect(document_, &PartitionDocument::mappingChanged, this, &LlmMemoryView::showTiming);
    showWorkload();
    showMemory();
}

// The prompt (its prefill gives the time to first token) and the reply's length.
QHBoxLayout* LlmMemoryView::createReplyRow() {
    prompt_->setObjectName("llmPromptTokens");
    generated_->setObjectName("llmGeneratedTokens");
    timing_->setObjectName("llmTiming");
    timing_->setWordWrap(true);
    timing_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Prompt"), this));
    prompt_->setToolTip(tr("Tokens of the prompt: their prefill through the pipeline is the time "
                           "to first token (0: none)"));
    row->addWidget(prompt_);
    row->addSpacing(12);
    row->addWidget(new QLabel(tr("Reply"), this));
    generated_->setToolTip(tr("Tokens generated after the prompt, one decode step each"));
    row->addWidget(generated_);
    row->addStretch(1);
    for (auto* box : {prompt_, generated_}) {
        box->setSuffix(tr(" tokens"));
        box->setGroupSeparatorShown(true);
        box->setKeyboardTracking(false); // a new prompt costs its prefill: once, when typed
        connect(box, &QSpinBox::valueChanged, this, [this] {
            auto w = document_->workload();
            w.prompt_tokens = prompt_->value();
            w.generated_tokens = generated_->value();
            if (!document_->setWorkload(w))
                showWorkload(); // refused: back to what holds
        });
    }
    return row;
}

void LlmMemoryView::showWorkload() {
    const QSignalBlocker sliderBlock(slider_), contextBlock(context_),
        sequencesBlock(sequences_);
    const int longest = longestContext(*document_);
    slider_->setRange(1, longest);
    slider_->setSingleStep(std::max(1, longest / 256));
    slider_->setPageStep(std::max(1, longest / 16));
    context_->setRange(1, longest);
    const auto& w = document_->workload();
    const int context =
        static_cast<int>(std::clamp<std::int64_t>(w.cached_context(), 1, longest));
    slider_->setValue(context);
    context_->setValue(context);
    sequences_->setValue(static_cast<int>(std::clamp<std::int64_t>(w.sequences, 1, 1024)));
    const QSignalBlocker promptBlock(prompt_), generatedBlock(generated_);
    prompt_->setRange(0, longest);
    generated_->setRange(0, longest);
    prompt_->setValue(static_cast<int>(std::clamp<std::int64_t>(w.prompt_tokens, 0, longest)));
    generated_->setValue(
        static_cast<int>(std::clamp<std::int64_t>(w.generated_tokens, 0, longest)));
    setEnabled(document_->isDecoder());
    showTiming();
}

QString LlmMemoryView::timingText() const {
    if (!document_->isDecoder() || !document_->hasMapping())
        return {};
    const auto& w = document_->workload();
    if (w.prompt_tokens < 1)
        return tr("Give the prompt's tokens for the time to first token.");
    if (document_->isCostingPrefill())
        return tr("Predicting the prefill of %1 tokens on every PE…")
            .arg(QLocale().toString(static_cast<qlonglong>(w.prompt_tokens)));
    const auto ttft = document_->timeToFirstTokenMs();
    if (!ttft)
        return tr("No time to first token: %1").arg(document_->prefillError());
    QString text = tr("First token after %1 ms (the prefill of %2 tokens).")
                       .arg(QString::fromStdString(format_ms(*ttft)))
                       .arg(QLocale().toString(static_cast<qlonglong>(w.prompt_tokens)));
    if (w.generated_tokens > 0) {
        const auto& e = document_->evaluation();
        text += " " + tr("A reply of %1 tokens: %2 s.")
                          .arg(QLocale().toString(static_cast<qlonglong>(w.generated_tokens)))
                          .arg(QLocale().toString(
                              partition::reply_ms(w, *ttft, e.latency_ms, e.bottleneck_ms) / 1000.0,
                              'f', 1));
    }
    return text;
}

void LlmMemoryView::showTiming() {
    timing_->setText(timingText());
}

QString LlmMemoryView::statusText() const {
    if (!document_->isDecoder())
        return tr("The model on show is no decoder: it has no KV cache to size.");
    const auto& memory = document_->llmMemory();
    if (!memory)
        return tr("No mapping on show.");
    if (memory->binding < 0)
        return tr("Fits: no pool gives a capacity.");
    const auto& binding = memory->pools[static_cast<std::size_t>(memory->binding)];
    QStringList over;
    for (const auto& pool : memory->pools)
        if (!pool.fits)
            over << QString::fromStdString(pool.describe());
    if (!over.isEmpty())
        return tr("Does not fit: %1").arg(over.join("; "));
    return tr("Fits; tightest: %1").arg(QString::fromStdString(binding.describe()));
}

void LlmMemoryView::showMemory() {
    status_->setText(statusText());
    const auto& memory = document_->llmMemory();
    QPalette p = status_->palette();
    p.setColor(QPalette::WindowText, memory && !memory->fits
                                         ? LlmMemoryBars::overColor()
                                         : palette().color(QPalette::WindowText));
    status_->setPalette(p);
}

} // namespace cleave::ui
