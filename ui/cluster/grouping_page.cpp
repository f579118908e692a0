#include "ui/cluster/grouping_page.hpp"

#include "core/grouping/device_vectors.hpp"
#include "core/input_error.hpp"
#include "core/json_file.hpp"
#include "ui/charts/group_bars_chart.hpp"
#include "ui/document/cluster_document.hpp"
#include "ui/document/task_runner.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>
#include <cmath>

namespace cleave::ui {

namespace {

QString num(double value, int digits = 4) {
    return QLocale().toString(value, 'g', digits);
}

} // namespace

GroupingPage::GroupingPage(GroupingDocument* document, QWidget* parent)
    : QWidget(parent), grouping_(document), cluster_(document->cluster()),
      runner_(new TaskRunner(this)) {
    setObjectName("groupingPage");
    createFields();
    auto* settings = layOutSettings();
    result_ = new GroupingResultView;
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(settings);
    layout->addWidget(result_, 1);
    connectSignals();
    updateChoices();
    clusterChanged();
    // The document starts from the settings on show: no edit.
    grouping_->setSettings(requestOnShow(), false);
}

// The settings' fields, the Group button and the status lines.
void GroupingPage::createFields() {
    groups_ = new QSpinBox;
    groups_->setRange(1, 1);
    groups_->setValue(2);
    groups_->setToolTip(tr("G: the number of groups (1 to the number of hosts)"));
    features_ = new QComboBox;
    features_->addItem(tr("flops: peak FP32"), "flops");
    features_->addItem(tr("config: cores, clocks, SMs, memory"), "config");
    features_->addItem(tr("hp: measured latencies (as rates)"), "hp");
    features_->addItem(tr("he: what latency follows"), "he");
    features_->addItem(tr("ha: hp and he"), "ha");
    features_->setToolTip(tr("What each group should get an equal total of (docs/grouping.md); "
                             "hp, he and ha need a device vectors file"));
    vectorsLabel_ = new QLabel(tr("none"));
    vectorsLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    vectorsButton_ = new QPushButton(tr("Open…"));
    vectorsButton_->setToolTip(tr("A device vectors file written by cleave device-vector --out"));
    workload_ = new QComboBox;
    workload_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    workload_->setMinimumContentsLength(16);
    workload_->setToolTip(tr("The benchmark each served task runs (Arch2End Case 2), from the "
                             "vectors file"));
    rate_ = new QDoubleSpinBox;
    rate_->setRange(0.01, 1e9);
    rate_->setDecimals(2);
    rate_->setValue(grouping::ServingOptions{}.rate_per_s);
    rate_->setSuffix(tr(" tasks/s"));
    batch_ = new QSpinBox;
    batch_->setRange(1, 100000);
    batch_->setValue(grouping::ServingOptions{}.batch);
    batch_->setSuffix(tr(" images"));
    duration_ = new QDoubleSpinBox;
    duration_->setRange(0.1, 3600);
    duration_->setValue(grouping::ServingOptions{}.duration_s);
    duration_->setSuffix(tr(" s"));
    seed_ = new QSpinBox;
    seed_->setRange(0, INT_MAX);
    seed_->setValue(static_cast<int>(grouping::SearchOptions{}.seed));
    capacity_ = new QLabel;
    capacity_->setWordWrap(true);
    capacity_->setStyleSheet("color: palette(mid)");
    runButton_ = new QPushButton(tr("Group"));
    runButton_->setDefault(true);
    status_ = new QLabel;
    status_->setWordWrap(true);
    error_ = new QLabel;
    error_->setWordWrap(true);
    error_->setStyleSheet("color: #b10026");
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

// The settings in forms over the Group button and the status lines, scrolled rather than squeezed
// when the window is short.
QWidget* GroupingPage::layOutSettings() {
    auto* vectorsRow = new QHBoxLayout;
    vectorsRow->addWidget(vectorsLabel_, 1);
    vectorsRow->addWidget(vectorsButton_);
    auto* settings = new QGroupBox(tr("Grouping"));
    auto* form = new QFormLayout(settings);
    form->addRow(tr("Groups (G)"), groups_);
    form->addRow(tr("Features"), features_);
    form->addRow(tr("Vectors"), vectorsRow);
    auto* serving = new QGroupBox(tr("Serving (Case 2)"));
    auto* servingForm = new QFormLayout(serving);
    servingForm->addRow(tr("Workload"), workload_);
    servingForm->addRow(tr("Arrivals"), rate_);
    servingForm->addRow(tr("Batch"), batch_);
    servingForm->addRow(tr("Duration"), duration_);
    servingForm->addRow(capacity_);
    auto* seedForm = new QFormLayout;
    seedForm->addRow(tr("Seed"), seed_);

    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(settings);
    leftLayout->addWidget(serving);
    leftLayout->addLayout(seedForm);
    leftLayout->addWidget(runButton_);
    leftLayout->addWidget(status_);
    leftLayout->addWidget(error_);
    leftLayout->addStretch(1);
    auto* leftScroll = new QScrollArea;
    leftScroll->setWidget(left);
    leftScroll->setWidgetResizable(true);
    leftScroll->setFrameShape(QFrame::NoFrame);
    leftScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    leftScroll->setMinimumWidth(280);
    leftScroll->setMaximumWidth(360);
    return leftScroll;
}

void GroupingPage::connectSignals() {
    connect(runButton_, &QPushButton::clicked, this, &GroupingPage::run);
    connect(vectorsButton_, &QPushButton::clicked, this, [this] {
        QSettings stored;
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open Device Vectors"), stored.value("lastVectorsFolder").toString(),
            tr("Device vectors (*.json);;All files (*)"));
        if (path.isEmpty())
            return;
        stored.setValue("lastVectorsFolder", QFileInfo(path).absolutePath());
        if (const QString message = openVectors(path); !message.isEmpty())
            showError(message);
    });
    connect(workload_, &QComboBox::currentIndexChanged, this, &GroupingPage::workloadChanged);
    connect(batch_, &QSpinBox::valueChanged, this, &GroupingPage::workloadChanged);
    // Every setting changed on show is the document's.
    connect(groups_, &QSpinBox::valueChanged, this, &GroupingPage::pushSettings);
    connect(features_, &QComboBox::currentIndexChanged, this, &GroupingPage::pushSettings);
    connect(workload_, &QComboBox::currentIndexChanged, this, &GroupingPage::pushSettings);
    connect(rate_, &QDoubleSpinBox::valueChanged, this, &GroupingPage::pushSettings);
    connect(batch_, &QSpinBox::valueChanged, this, &GroupingPage::pushSettings);
    connect(duration_, &QDoubleSpinBox::valueChanged, this, &GroupingPage::pushSettings);
    connect(seed_, &QSpinBox::valueChanged, this, &GroupingPage::pushSettings);
    connect(cluster_, &ClusterDocument::changed, this, &GroupingPage::clusterChanged);
    connect(grouping_, &GroupingDocument::vectorsChanged, this, &GroupingPage::updateChoices);
    connect(grouping_, &GroupingDocument::outcomeChanged, this, &GroupingPage::showOutcome);
    connect(grouping_, &GroupingDocument::outcomeDropped, this,
            [this](const QString& why) { status_->setText(why); });
    connect(grouping_, &GroupingDocument::restored, this, &GroupingPage::showRestored);
}

QString GroupingPage::openVectors(const QString& path) {
    const QString message = grouping_->openVectors(path);
    if (message.isEmpty())
        error_->clear();
    return message;
}

// The vectors file's feature sets and workloads become choices.
void GroupingPage::updateChoices() {
    const QString vectors = grouping_->vectorsFile();
    vectorsLabel_->setText(vectors.isEmpty() ? tr("none") : QFileInfo(vectors).fileName());
    vectorsLabel_->setToolTip(vectors.isEmpty() ? QString()
                                                : tr("%1: %2 devices, %3 benchmarks")
                                                      .arg(vectors)
                                                      .arg(grouping_->vectorDevices())
                                                      .arg(grouping_->benchmarks().size()));
    auto* items = qobject_cast<QStandardItemModel*>(features_->model());
    for (int i = 0; i < features_->count(); ++i) {
        const std::string set = features_->itemData(i).toString().toStdString();
        const bool vectorSet =
            std::find(grouping::kVectorFeatureSets.begin(), grouping::kVectorFeatureSets.end(),
                      set) != grouping::kVectorFeatureSets.end();
        items->item(i)->setEnabled(!vectorSet || !vectors.isEmpty());
    }
    const QString current = workload_->currentData().toString();
    QSignalBlocker block(workload_);
    workload_->clear();
    workload_->addItem(tr("none (no serving)"), QString());
    const auto& benchmarks = grouping_->benchmarks();
    for (const auto& benchmark : benchmarks)
        workload_->addItem(QString::fromStdString(benchmark), QString::fromStdString(benchmark));
    workload_->setCurrentIndex(std::max(0, workload_->findData(current)));
    workload_->setEnabled(!benchmarks.empty());
    workloadChanged();
}

void GroupingPage::workloadChanged() {
    const bool serving = !workload_->currentData().toString().isEmpty();
    for (QWidget* w : std::initializer_list<QWidget*>{rate_, batch_, duration_})
        w->setEnabled(serving);
    capacity_->clear();
    if (!serving || cluster_->hostCount() == 0)
        return;
    // The cluster's capacity for this workload, and a rate at 80 % of it to start from.
    try {
        const auto ms = grouping::host_benchmark_ms(
            cluster_->cluster(),
            grouping::load_device_vectors(grouping_->vectorsFile().toStdString()),
            workload_->currentData().toString().toStdString(),
            grouping_->vectorsFile().toStdString(), "workload");
        double images = 0;
        for (const double m : ms)
            images += 1000.0 / m;
        const double tasks = images / batch_->value();
        capacity_->setText(tr("The cluster serves at most %1 images/s: %2 tasks/s of %3 images.")
                               .arg(num(images, 5), num(tasks, 5))
                               .arg(batch_->value()));
        if (sender() == workload_)
            rate_->setValue(std::round(0.8 * tasks * 100) / 100);
    } catch (const std::exception& e) {
        capacity_->setText(QString::fromStdString(e.what()));
    }
}

grouping::GroupingRequest GroupingPage::requestOnShow() const {
    grouping::GroupingRequest request;
    request.groups = groups_->value();
    request.features = features_->currentData().toString().toStdString();
    request.workload = workload_->currentData().toString().toStdString();
    request.serving.rate_per_s = rate_->value();
    request.serving.batch = batch_->value();
    request.serving.duration_s = duration_->value();
    request.seed = static_cast<std::uint64_t>(seed_->value());
    return request;
}

// A setting the user changed; the ones shown from the document are its already.
void GroupingPage::pushSettings() {
    if (!applying_)
        grouping_->setSettings(requestOnShow(), true);
}

bool GroupingPage::run() {
    if (runner_->isRunning())
        return false;
    grouping::GroupingRequest job = grouping_->request();
    if (!job.cluster) {
        showError(
            tr("The cluster has no hosts: open a cluster or add devices in the Cluster tab."));
        return false;
    }
    error_->clear();
    runButton_->setEnabled(false);
    status_->setText(tr("Grouping %1 hosts into %2 groups by every feature set…")
                         .arg(job.cluster->hosts.size())
                         .arg(job.groups));
    const int generation = grouping_->generation();
    struct Result {
        GroupingOutcomePtr outcome;
        QString error;
        double seconds = 0;
    };
    runner_->start<Result>(
        [job = std::move(job)]() -> Result {
            QElapsedTimer clock;
            clock.start();
            try {
                auto outcome = std::make_shared<const grouping::GroupingOutcome>(
                    grouping::run_grouping(job));
                return {outcome, {}, clock.elapsed() / 1000.0};
            } catch (const std::exception& e) {
                return {nullptr, QString::fromStdString(e.what()), 0};
            }
        },
        [this, generation](const Result& result) {
            runButton_->setEnabled(true);
            if (generation == grouping_->generation()) {
                if (!result.outcome) {
                    showError(result.error);
                } else if (grouping::grouping_hosts(*result.outcome->request.cluster) !=
                           grouping::grouping_hosts(cluster_->cluster())) {
                    status_->setText(tr("The hosts changed while grouping: group again."));
                } else {
                    seconds_ = result.seconds;
                    grouping_->setOutcome(result.outcome);
                }
            }
            emit finished();
        });
    return true;
}

void GroupingPage::showError(const QString& message) {
    status_->clear();
    error_->setText(message);
}

// (The document drops a result for other hosts; outcomeDropped says so.)
void GroupingPage::clusterChanged() {
    const int hosts = cluster_->hostCount();
    groups_->setMaximum(std::max(1, hosts));
    runButton_->setEnabled(!runner_->isRunning() && hosts > 0);
    workloadChanged();
}

void GroupingPage::clearShown() {
    result_->clear();
    emit groupsChanged({}, {});
}

void GroupingPage::showOutcome() {
    const double seconds = std::exchange(seconds_, 0.0);
    if (!grouping_->outcome()) {
        clearShown();
        return;
    }
    const auto& outcome = *grouping_->outcome();
    const auto& request = outcome.request;
    const auto& chosen = outcome.chosen;
    const int groups = request.groups;
    QString text = tr("%1 hosts in %2 groups by %3 (%4 feature%5, each divided by its largest "
                      "value): objective %6, best of %7 starts")
                       .arg(request.cluster->hosts.size())
                       .arg(groups)
                       .arg(QString::fromStdString(request.features))
                       .arg(chosen.table.features.size())
                       .arg(chosen.table.features.size() == 1 ? "" : "s")
                       .arg(num(chosen.search.best.objective))
                       .arg(chosen.search.starts);
    if (seconds > 0)
        text += tr("; every feature set grouped in %1 s").arg(num(seconds, 2));
    if (!chosen.table.notes.empty())
        text += tr(". Figures the datasheets do not give count as 0 (%1 notes in the tooltip).")
                    .arg(chosen.table.notes.size());
    status_->setText(text);
    QString notes;
    for (const auto& note : chosen.table.notes)
        notes += QString::fromStdString(note) + "\n";
    status_->setToolTip(notes.trimmed());
    error_->clear();

    result_->setOutcome(outcome);
    emit groupsChanged(groupOfHost(), GroupingResultView::groupColours(groups));
}

QHash<QString, int> GroupingPage::groupOfHost() const {
    QHash<QString, int> groups;
    const auto& outcome = grouping_->outcome();
    if (!outcome)
        return groups;
    const auto& hosts = outcome->request.cluster->hosts;
    for (std::size_t d = 0; d < hosts.size(); ++d)
        groups.insert(QString::fromStdString(hosts[d].host),
                      outcome->chosen.search.best.group_of[d]);
    return groups;
}

bool GroupingPage::isRunning() const {
    return runner_->isRunning();
}

QString GroupingPage::statusText() const {
    return status_->text();
}

QString GroupingPage::errorText() const {
    return error_->text();
}

void GroupingPage::showRestored(const QString& error, const QString& note) {
    if (!error.isEmpty()) {
        showError(error);
        return;
    }
    const auto r = grouping_->request();
    applying_ = true;
    groups_->setValue(r.groups);
    features_->setCurrentIndex(
        std::max(0, features_->findData(QString::fromStdString(r.features))));
    workload_->setCurrentIndex(
        std::max(0, workload_->findData(QString::fromStdString(r.workload))));
    batch_->setValue(r.serving.batch);
    duration_->setValue(r.serving.duration_s);
    rate_->setValue(r.serving.rate_per_s);
    seed_->setValue(static_cast<int>(r.seed));
    applying_ = false;
    error_->clear();
    status_->setText(note);
}

QString GroupingPage::runSettingsFile(const QString& path) {
    nlohmann::json settings;
    try {
        settings = read_json_file(path.toStdString(),
                                  "grouping settings such as {\"groups\": 4, \"features\": "
                                  "\"hp\", \"vectors\": \"vectors.json\"}");
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    if (settings.is_object() && settings.contains("result"))
        return grouping_->restoreState(settings);
    if (QString message = grouping_->restoreState(settings); !message.isEmpty())
        return message;
    run();
    return {};
}

} // namespace cleave::ui
