// The DSE tab's search settings as a form: encoding, population, generations, stages, levels,
// seed and the latency objective, read and set as dse::SearchSettings; `changed` on any edit.
#pragma once

#include "core/dse/nsga2_search.hpp"

#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace cleave::ui {

class DseSettingsForm : public QGroupBox {
    Q_OBJECT

public:
    explicit DseSettingsForm(QWidget* parent = nullptr);

    // The fields the form shows; the rest of SearchSettings is the defaults'.
    dse::SearchSettings settings() const;
    bool latencyObjective() const;
    void setSettings(const dse::SearchSettings& settings, bool latency_objective);

    QComboBox* encodingBox() const { return encoding_; }
    QSpinBox* populationBox() const { return population_; }
    QSpinBox* generationsBox() const { return generations_; }
    QComboBox* stagesBox() const { return stages_; }
    QComboBox* levelsBox() const { return levels_; }
    QSpinBox* seedBox() const { return seed_; }

signals:
    void changed();

private:
    QComboBox* encoding_;
    QSpinBox* population_;
    QSpinBox* generations_;
    QComboBox* stages_;
    QComboBox* levels_;
    QSpinBox* seed_;
    QCheckBox* latency_;
};

} // namespace cleave::ui
