#include "ui/cluster/cluster_page.hpp"

#include "ui/document/cluster_document.hpp"
#include "ui/cluster/cluster_host_model.hpp"
#include "ui/cluster/cluster_link_model.hpp"
#include "core/device/device_library.hpp"
#include "ui/cluster/grouping_page.hpp"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

namespace cleave::ui {

namespace {

// A choice of the library's devices; a device file's path may be typed instead.
class DeviceDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&,
                          const QModelIndex&) const override {
        auto* box = new QComboBox(parent);
        box->setEditable(true);
        for (const auto& id : device::library_device_ids())
            box->addItem(QString::fromStdString(id));
        return box;
    }
    void setEditorData(QWidget* editor, const QModelIndex& index) const override {
        static_cast<QComboBox*>(editor)->setCurrentText(index.data(Qt::EditRole).toString());
    }
    void setModelData(QWidget* editor, QAbstractItemModel* model,
                      const QModelIndex& index) const override {
        model->setData(index, static_cast<QComboBox*>(editor)->currentText().trimmed());
    }
};

// A choice of the cluster's hosts, for either end of a link.
class HostDelegate : public QStyledItemDelegate {
public:
    HostDelegate(ClusterDocument* document, QObject* parent)
        : QStyledItemDelegate(parent), document_(document) {}

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&,
                          const QModelIndex&) const override {
        auto* box = new QComboBox(parent);
        for (const auto& host : document_->cluster().hosts)
            box->addItem(QString::fromStdString(host.host));
        return box;
    }
    void setEditorData(QWidget* editor, const QModelIndex& index) const override {
        static_cast<QComboBox*>(editor)->setCurrentText(index.data(Qt::EditRole).toString());
    }
    void setModelData(QWidget* editor, QAbstractItemModel* model,
                      const QModelIndex& index) const override {
        model->setData(index, static_cast<QComboBox*>(editor)->currentText());
    }

private:
    ClusterDocument* document_;
};

void setupTable(QTableView* table) {
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->verticalHeader()->hide();
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    table->horizontalHeader()->setHighlightSections(false);
    table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                           QAbstractItemView::AnyKeyPressed);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    // Columns as wide as their contents (a few hundred rows at most); the widest one stretches.
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

QToolButton* toolButton(QAction* action) {
    auto* button = new QToolButton;
    button->setDefaultAction(action);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return button;
}

} // namespace

ClusterPage::ClusterPage(ClusterDocument* document, GroupingDocument* grouping, QWidget* parent)
    : QWidget(parent), document_(document),
      hosts_(new ClusterHostModel(document_, this)), links_(new ClusterLinkModel(document_, this)),
      grouping_(new GroupingPage(grouping)) {
    setObjectName("clusterPage");
    auto* fileRow = buildFileRow();
    auto* hostBox = buildHostBox();
    auto* linkBox = buildLinkBox();

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(hostBox);
    split->addWidget(linkBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(fileRow);
    layout->addWidget(split, 1);

    connect(hosts_, &ClusterHostModel::editRefused, this, &ClusterPage::showError);
    connect(links_, &ClusterLinkModel::editRefused, this, &ClusterPage::showError);
    connect(grouping_, &GroupingPage::groupsChanged, hosts_, &ClusterHostModel::setGroups);
    connect(document_, &ClusterDocument::changed, this, [this] {
        updateSummary();
        updateSuggestion();
    });
    connect(document_, &ClusterDocument::edited, this, [this] {
        error_->clear();
        emit clusterEdited(document_->clusterPtr());
    });
    updateSummary();
    updateSuggestion();
}

// New, Open, Save As, Export, Undo and Redo, then the cluster's summary.
QHBoxLayout* ClusterPage::buildFileRow() {
    auto* newButton = new QPushButton(tr("New"));
    newButton->setToolTip(tr("An empty cluster (one undo step)"));
    auto* openButton = new QPushButton(tr("Open…"));
    openButton->setToolTip(tr("A cluster file (.cluster.json) or an AutoDiCE platform.txt"));
    auto* saveButton = new QPushButton(tr("Save As…"));
    saveButton->setToolTip(tr("Write the cluster as a cluster file (.cluster.json)"));
    auto* exportButton = new QPushButton(tr("Export platform.txt…"));
    exportButton->setToolTip(tr("Write the cluster as AutoDiCE's platform.txt"));
    // The Edit menu's Undo and Redo (Ctrl+Z, Ctrl+Shift+Z) act on this stack while the tab shows.
    // Short names on the buttons; what they would undo or redo in their tooltips.
    auto* stack = document_->undoStack();
    auto* undo = new QAction(tr("Undo"), this);
    auto* redo = new QAction(tr("Redo"), this);
    undo->setEnabled(false);
    redo->setEnabled(false);
    connect(undo, &QAction::triggered, stack, &QUndoStack::undo);
    connect(redo, &QAction::triggered, stack, &QUndoStack::redo);
    connect(stack, &QUndoStack::canUndoChanged, undo, &QAction::setEnabled);
    connect(stack, &QUndoStack::canRedoChanged, redo, &QAction::setEnabled);
    connect(stack, &QUndoStack::undoTextChanged, undo,
            [undo](const QString& text) { undo->setToolTip(tr("Undo %1").arg(text)); });
    connect(stack, &QUndoStack::redoTextChanged, redo,
            [redo](const QString& text) { redo->setToolTip(tr("Redo %1").arg(text)); });
    summary_ = new QLabel;
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* fileRow = new QHBoxLayout;
    for (auto* button : {newButton, openButton, saveButton, exportButton})
        fileRow->addWidget(button);
    fileRow->addWidget(toolButton(undo));
    fileRow->addWidget(toolButton(redo));
    fileRow->addSpacing(12);
    fileRow->addWidget(summary_, 1);
    connect(newButton, &QPushButton::clicked, this, [this] { newCluster(); });
    connect(openButton, &QPushButton::clicked, this, &ClusterPage::openDialog);
    connect(saveButton, &QPushButton::clicked, this, &ClusterPage::saveDialog);
    connect(exportButton, &QPushButton::clicked, this, &ClusterPage::exportDialog);
    return fileRow;
}

// A device of the library added as a host, the host table, and refused edits in red under it.
QGroupBox* ClusterPage::buildHostBox() {
    library_ = new QComboBox;
    library_->setObjectName("deviceLibraryBox");
    for (const auto& id : device::library_device_ids()) {
        const auto spec = device::library_device(id);
        const QString name = spec ? QString::fromStdString(spec->name) : QString();
        library_->addItem(QString("%1 — %2").arg(QString::fromStdString(id), name),
                          QString::fromStdString(id));
        library_->setItemData(library_->count() - 1, name, Qt::ToolTipRole);
    }
    library_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    library_->setMinimumContentsLength(28);
    hostName_ = new QLineEdit;
    hostName_->setObjectName("hostNameEdit");
    hostName_->setClearButtonEnabled(true);
    hostName_->setToolTip(tr("Letters, digits, '-' and '.'; empty: the suggested name"));
    hostName_->setMaximumWidth(200);
    addButton_ = new QPushButton(tr("Add Device"));
    removeButton_ = new QPushButton(tr("Remove"));
    removeButton_->setToolTip(tr("Remove the selected hosts and their links (Delete)"));
    auto* addRow = new QHBoxLayout;
    addRow->addWidget(new QLabel(tr("Device")));
    addRow->addWidget(library_, 1);
    addRow->addWidget(new QLabel(tr("as host")));
    addRow->addWidget(hostName_);
    addRow->addWidget(addButton_);
    addRow->addStretch(0);
    addRow->addWidget(removeButton_);

    hostView_ = new QTableView;
    hostView_->setObjectName("clusterHostTable");
    hostView_->setModel(hosts_);
    setupTable(hostView_);
    hostView_->setItemDelegateForColumn(ClusterHostModel::Device, new DeviceDelegate(this));
    hostView_->horizontalHeader()->setSectionResizeMode(ClusterHostModel::Pes,
                                                        QHeaderView::Stretch);
    new QShortcut(
        QKeySequence::Delete, hostView_, this, [this] { removeSelectedHosts(); },
        Qt::WidgetShortcut);

    error_ = new QLabel;
    error_->setObjectName("clusterError");
    error_->setWordWrap(true);
    error_->setStyleSheet("color: #b10026");
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* hostBox = new QGroupBox(tr("Hosts"));
    auto* hostLayout = new QVBoxLayout(hostBox);
    hostLayout->addLayout(addRow);
    hostLayout->addWidget(hostView_, 1);
    hostLayout->addWidget(error_);
    connect(addButton_, &QPushButton::clicked, this, [this] { addDevice(); });
    connect(hostName_, &QLineEdit::returnPressed, this, [this] { addDevice(); });
    connect(removeButton_, &QPushButton::clicked, this, [this] { removeSelectedHosts(); });
    connect(library_, &QComboBox::currentIndexChanged, this, &ClusterPage::updateSuggestion);
    return hostBox;
}

// The link table (the switch, then direct links) with its buttons.
QGroupBox* ClusterPage::buildLinkBox() {
    linkView_ = new QTableView;
    linkView_->setObjectName("clusterLinkTable");
    linkView_->setModel(links_);
    setupTable(linkView_);
    auto* hostChoice = new HostDelegate(document_, this);
    linkView_->setItemDelegateForColumn(ClusterLinkModel::A, hostChoice);
    linkView_->setItemDelegateForColumn(ClusterLinkModel::B, hostChoice);
    linkView_->horizontalHeader()->setStretchLastSection(true);
    // The switch and two direct links without scrolling.
    linkView_->setMinimumHeight(4 * (fontMetrics().height() + 8) + 4);
    auto* addLinkButton = new QPushButton(tr("Add Link"));
    addLinkButton->setToolTip(tr("A direct link between two hosts, replacing the switch's for "
                                 "them; pick its hosts in the table"));
    removeLinkButton_ = new QPushButton(tr("Remove Link"));
    auto* linkButtons = new QVBoxLayout;
    linkButtons->addWidget(addLinkButton);
    linkButtons->addWidget(removeLinkButton_);
    linkButtons->addStretch(1);
    auto* linkBox = new QGroupBox(tr("Links (the first row is the switch between any two hosts)"));
    auto* linkLayout = new QHBoxLayout(linkBox);
    linkLayout->addWidget(linkView_, 1);
    linkLayout->addLayout(linkButtons);
    connect(addLinkButton, &QPushButton::clicked, this, [this] { addLink(); });
    connect(removeLinkButton_, &QPushButton::clicked, this, [this] { removeSelectedLink(); });
    return linkBox;
}

QUndoStack* ClusterPage::undoStack() const {
    return document_->undoStack();
}

void ClusterPage::setCluster(const ClusterPtr& cluster) {
    error_->clear();
    document_->setCluster(cluster);
}

nlohmann::json ClusterPage::clusterJson() const {
    if (document_->hostCount() == 0)
        return nullptr;
    return device::cluster_to_json(document_->cluster());
}

QString ClusterPage::restoreCluster(const nlohmann::json& cluster, const QString& file) {
    try {
        setCluster(std::make_shared<const device::Cluster>(
            device::cluster_from_json(cluster, file.toStdString())));
    } catch (const std::exception& e) {
        return report(QString::fromStdString(e.what()));
    }
    emit clusterEdited(document_->clusterPtr());
    return {};
}

QString ClusterPage::report(const QString& message) {
    if (message.isEmpty())
        error_->clear();
    else
        showError(message);
    return message;
}

void ClusterPage::showError(const QString& message) {
    error_->setText(message);
}

QString ClusterPage::errorText() const {
    return error_->text();
}

QString ClusterPage::summaryText() const {
    return summary_->text();
}

void ClusterPage::updateSummary() {
    const auto& cluster = document_->cluster();
    const QString file = cluster.file.empty()
                             ? tr("new cluster")
                             : QFileInfo(QString::fromStdString(cluster.file)).fileName();
    const auto count = [](std::size_t n, const QString& one, const QString& many) {
        return QString::number(n) + " " + (n == 1 ? one : many);
    };
    summary_->setText(QString("%1: %2, %3, %4")
                          .arg(file, count(cluster.hosts.size(), tr("host"), tr("hosts")),
                               count(cluster.pes.size(), tr("PE"), tr("PEs")),
                               count(cluster.pairs.size(), tr("direct link"), tr("direct links"))));
    summary_->setToolTip(
        QString::fromStdString(cluster.note.empty() ? cluster.file : cluster.note));
    removeLinkButton_->setEnabled(!cluster.pairs.empty());
}

void ClusterPage::updateSuggestion() {
    hostName_->setPlaceholderText(document_->uniqueHostName(library_->currentData().toString()));
}

QString ClusterPage::addDevice() {
    const QString device = library_->currentData().toString();
    const QString name = hostName_->text().trimmed();
    const QString error = report(document_->addHost(device, name));
    if (error.isEmpty()) {
        hostName_->clear();
        const QModelIndex last = hosts_->index(hosts_->rowCount() - 1, 0);
        hostView_->setCurrentIndex(last);
        hostView_->scrollTo(last);
    }
    return error;
}

QString ClusterPage::removeSelectedHosts() {
    QList<int> rows;
    for (const auto& index : hostView_->selectionModel()->selectedRows())
        rows << index.row();
    if (rows.isEmpty() && hostView_->currentIndex().isValid())
        rows << hostView_->currentIndex().row();
    if (rows.isEmpty())
        return report(tr("Select the hosts to remove first."));
    return report(document_->removeHosts(rows));
}

QString ClusterPage::newCluster() {
    device::Cluster empty;
    return report(document_->replace(std::move(empty), tr("New cluster")));
}

QString ClusterPage::openFile(const QString& path) {
    return report(document_->open(path));
}

QString ClusterPage::saveClusterFile(const QString& path) {
    return report(document_->saveClusterFile(path));
}

QString ClusterPage::exportPlatformFile(const QString& path) {
    return report(document_->exportPlatformFile(path));
}

QString ClusterPage::addLink() {
    const auto [a, b] = document_->unlinkedPair();
    if (a.isEmpty())
        return report(document_->hostCount() < 2
                          ? tr("A link joins two hosts: add another host first.")
                          : tr("Every pair of hosts has its own link already."));
    const QString error = report(document_->addPair(a, b, document_->cluster().default_link));
    if (error.isEmpty())
        linkView_->setCurrentIndex(links_->index(links_->rowCount() - 1, ClusterLinkModel::A));
    return error;
}

QString ClusterPage::removeSelectedLink() {
    const int pair = ClusterLinkModel::pairOf(linkView_->currentIndex().row());
    if (!linkView_->currentIndex().isValid() || pair < 0)
        return report(tr("Select a direct link to remove (the switch stays)."));
    return report(document_->removePair(pair));
}

QString askForClusterFile(QWidget* parent) {
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(
        parent, QObject::tr("Open Cluster"), settings.value("lastClusterFolder").toString(),
        QObject::tr("Clusters (*.cluster.json *.json *.txt);;All files (*)"));
    if (!path.isEmpty())
        settings.setValue("lastClusterFolder", QFileInfo(path).absolutePath());
    return path;
}

void ClusterPage::openDialog() {
    if (const QString path = askForClusterFile(this); !path.isEmpty())
        openFile(path);
}

void ClusterPage::saveDialog() {
    QSettings settings;
    const QString current = QString::fromStdString(document_->cluster().file);
    QString suggested = settings.value("lastClusterFolder").toString() + "/cluster.cluster.json";
    if (current.endsWith(".json"))
        suggested = current;
    QString path = QFileDialog::getSaveFileName(this, tr("Save Cluster File"), suggested,
                                                tr("Cluster files (*.cluster.json *.json)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(".json"))
        path += ".cluster.json"; // what load_cluster reads as a cluster file
    settings.setValue("lastClusterFolder", QFileInfo(path).absolutePath());
    saveClusterFile(path);
}

void ClusterPage::exportDialog() {
    QSettings settings;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export platform.txt"),
        settings.value("lastClusterFolder").toString() + "/platform.txt",
        tr("AutoDiCE platform files (*.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue("lastClusterFolder", QFileInfo(path).absolutePath());
    exportPlatformFile(path);
}

} // namespace cleave::ui
