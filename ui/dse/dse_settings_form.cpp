#include "ui/dse/dse_settings_form.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QSpinBox>
#include <climits>

namespace cleave::ui {

DseSettingsForm::DseSettingsForm(QWidget* parent) : QGroupBox(tr("Search"), parent) {
    const dse::SearchSettings defaults;
    encoding_ = new QComboBox;
    encoding_->addItem(tr("split points (SPE)"), "spe");
    encoding_->addItem(tr("PE per kernel (naive)"), "naive");
    encoding_->setToolTip(tr("SPE: split genes and a PE gene per segment; naive: a PE gene per "
                             "kernel"));
    population_ = new QSpinBox;
    population_->setRange(0, 100000);
    population_->setValue(defaults.population);
    population_->setToolTip(tr("Individuals per generation: at least 8, a multiple of 4"));
    generations_ = new QSpinBox;
    generations_->setRange(0, 1000000);
    generations_->setValue(defaults.generations);
    generations_->setToolTip(tr("The budget is population x (generations + 1) evaluations, "
                                "shared by all stages and levels"));
    stages_ = new QComboBox;
    stages_->addItem(tr("auto (ceil(log2 N))"), 0);
    stages_->addItem(tr("1 (all PEs)"), 1);
    levels_ = new QComboBox;
    levels_->addItem(tr("1 (analytical)"), 1);
    levels_->addItem(tr("2 (analytical, then replay)"), 2);
    levels_->setCurrentIndex(defaults.levels == 2 ? 1 : 0);
    seed_ = new QSpinBox;
    seed_->setRange(0, INT_MAX);
    seed_->setValue(static_cast<int>(defaults.seed));
    latency_ = new QCheckBox(tr("Latency objective"));
    latency_->setToolTip(tr("Also minimise the pipeline latency of one input"));

    auto* form = new QFormLayout(this);
    form->addRow(tr("Encoding"), encoding_);
    form->addRow(tr("Population"), population_);
    form->addRow(tr("Generations"), generations_);
    form->addRow(tr("Stages"), stages_);
    form->addRow(tr("Levels"), levels_);
    form->addRow(tr("Seed"), seed_);
    form->addRow(latency_);

    for (auto* box : {population_, generations_, seed_})
        connect(box, &QSpinBox::valueChanged, this, &DseSettingsForm::changed);
    for (auto* box : {encoding_, stages_, levels_})
        connect(box, &QComboBox::currentIndexChanged, this, &DseSettingsForm::changed);
    connect(latency_, &QCheckBox::toggled, this, &DseSettingsForm::changed);
}

dse::SearchSettings DseSettingsForm::settings() const {
    dse::SearchSettings settings;
    settings.encoding =
        encoding_->currentData().toString() == "naive" ? dse::Encoding::naive : dse::Encoding::spe;
    settings.population = population_->value();
    settings.generations = generations_->value();
    settings.stages = stages_->currentData().toInt();
    settings.levels = levels_->currentData().toInt();
    settings.seed = static_cast<unsigned>(seed_->value());
    return settings;
}

bool DseSettingsForm::latencyObjective() const {
    return latency_->isChecked();
}

void DseSettingsForm::setSettings(const dse::SearchSettings& s, bool latency_objective) {
    encoding_->setCurrentIndex(
        encoding_->findData(s.encoding == dse::Encoding::naive ? "naive" : "spe"));
    population_->setValue(s.population);
    generations_->setValue(s.generations);
    stages_->setCurrentIndex(stages_->findData(s.stages));
    levels_->setCurrentIndex(levels_->findData(s.levels));
    seed_->setValue(static_cast<int>(s.seed));
    latency_->setChecked(latency_objective);
}

} // namespace cleave::ui
