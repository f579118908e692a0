// A decoder's memory on the Partition tab: the workload's context (a slider and a box),
// sequences in flight, prompt and reply, the time to first token and to the whole reply, and a
// bar per memory pool the mapping uses (a host's memory, or a desktop
// GPU's own) stacking its weights, KV cache and activations against the pool's usable capacity.
// A pool that does not fit turns red and says why (partition::LlmMemoryPool::describe); each
// names the longest context it would hold. The document holds the workload and the figures
// (PartitionDocument::llmMemory); moving the context re-sizes only the caches, so the bars
// follow the slider frame by frame.
#pragma once

#include <QWidget>

class QHBoxLayout;
class QLabel;
class QSlider;
class QSpinBox;

namespace cleave::ui {

class PartitionDocument;

// The bars alone.
class LlmMemoryBars : public QWidget {
    Q_OBJECT

public:
    explicit LlmMemoryBars(PartitionDocument* document, QWidget* parent = nullptr);

    QSize sizeHint() const override;
    static QColor overColor() { return QColor(0xd6, 0x27, 0x28); }
    // The bar's fill for each part: weights, KV cache, activations.
    static QColor partColor(int part);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    PartitionDocument* document_;
};

class LlmMemoryView : public QWidget {
    Q_OBJECT

public:
    explicit LlmMemoryView(PartitionDocument* document, QWidget* parent = nullptr);

    QSlider* contextSlider() const { return slider_; }
    QSpinBox* contextBox() const { return context_; }
    QSpinBox* sequencesBox() const { return sequences_; }
    QSpinBox* promptBox() const { return prompt_; }
    QSpinBox* generatedBox() const { return generated_; }
    LlmMemoryBars* bars() const { return bars_; }
    // The line under the bars: whether the mapping fits, the tightest pool, or why there are no
    // figures.
    QString statusText() const;
    // The line over the bars: the time to first token and to the whole reply, or why not.
    QString timingText() const;

private:
    QHBoxLayout* createReplyRow();
    void showWorkload();
    void showMemory();
    void showTiming();

    PartitionDocument* document_;
    QSlider* slider_;
    QSpinBox* context_;
    QSpinBox* sequences_;
    QSpinBox* prompt_;
    QSpinBox* generated_;
    LlmMemoryBars* bars_;
    QLabel* status_;
    QLabel* timing_;
};

} // namespace cleave::ui
