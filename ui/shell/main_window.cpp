#include "ui/shell/main_window.hpp"

#include "ui/document/studio_document.hpp"
#include "ui/graph/graph_page.hpp"
#include "ui/graph/graph_view.hpp"
#include "ui/latency/kernel_dock.hpp"
#include "ui/latency/kernel_table_model.hpp"
#include "ui/latency/latency_breakdown_dock.hpp"
#include "ui/latency/measured_comparison_dock.hpp"
#include "ui/graph/model_summary_dock.hpp"
#include "ui/graph/node_table_model.hpp"
#include "ui/partition/partition_document.hpp"
#include "ui/partition/partition_page.hpp"
#include "ui/document/project_controller.hpp"
#include "ui/dse/dse_page.hpp"
#include "ui/cluster/cluster_page.hpp"
#include "ui/cluster/grouping_page.hpp"
#include "ui/graph/properties_dock.hpp"
#include "ui/shell/recent_files.hpp"
#include "ui/shell/start_page.hpp"
#include "ui/graph/term_filter_proxy.hpp"
#include "ui/shell/about_box.hpp"
#include "ui/shell/export_menus.hpp"
#include "ui/shell/theme.hpp"
#include "ui/shell/view_export.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QShortcut>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QUndoGroup>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtConcurrent>
#include <algorithm>
#include <cleave/version.hpp>

namespace cleave::ui {

namespace {

bool isModelFile(const QUrl& url) { // a model, or a project (.cleave)
    return url.isLocalFile() && (url.toLocalFile().endsWith(".onnx", Qt::CaseInsensitive) ||
                                 url.toLocalFile().endsWith(".cleave", Qt::CaseInsensitive));
}

// Most loads take a fraction of a second; a progress bar that flashes for them is noise.
constexpr int kBusyDelayMs = 300;

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), document_(new StudioDocument(this)), loader_(new ModelLoadRunner(this)),
      nodes_(new NodeTableModel(this)),
      proxy_(new TermFilterProxy(this)), recent_(new RecentFiles(this)),
      pages_(new QStackedWidget(this)), startPage_(new StartPage(this)),
      nodeView_(new QTableView(this)), filterEdit_(new QLineEdit(this)),
      countLabel_(new QLabel(this)), summary_(new ModelSummaryDock(this)),
      kernelDock_(new KernelDock(document_, this)), progress_(new QProgressBar(this)),
      cancelButton_(new QPushButton(tr("Cancel"), this)), busyDelay_(new QTimer(this)) {
    setWindowTitle(tr("Cleave"));
    setAcceptDrops(true);

    pages_->addWidget(startPage_);
    connect(startPage_, &StartPage::openRequested, this, &MainWindow::openFile);

    auto* tablePage = new QWidget(this);
    auto* layout = new QVBoxLayout(tablePage);
    layout->setContentsMargins(6, 6, 6, 0);
    auto* filterRow = new QHBoxLayout;
    filterEdit_->setPlaceholderText(
        tr("Filter by name, op or shape; every term must match (Ctrl+F)"));
    filterEdit_->setClearButtonEnabled(true);
    filterEdit_->setAcceptDrops(false); // a dropped model opens; its URL is no filter text
    new QShortcut(QKeySequence(Qt::Key_Escape), filterEdit_, filterEdit_, &QLineEdit::clear,
                  Qt::WidgetShortcut);
    filterRow->addWidget(filterEdit_, 1);
    filterRow->addWidget(countLabel_);
    layout->addLayout(filterRow);
    layout->addWidget(nodeView_, 1);
    tabs_ = new QTabWidget(this);
    tabs_->setDocumentMode(true);
    graphPage_ = new GraphPage(tabs_);
    tabs_->addTab(graphPage_, tr("Graph"));
    tabs_->addTab(tablePage, tr("Nodes"));
    partitionPage_ = new PartitionPage(document_->mapping(), tabs_);
    connect(partitionPage_, &PartitionPage::fusionPartsWanted, document_,
            &StudioDocument::setFusionParts);
    tabs_->addTab(partitionPage_, tr("Partition"));
    dsePage_ = new DsePage(document_->dse(), tabs_);
    tabs_->addTab(dsePage_, tr("DSE"));
    clusterPage_ =
        new ClusterPage(document_->clusterEditor(), document_->grouping(), tabs_);
    tabs_->addTab(clusterPage_, tr("Cluster"));
    tabs_->addTab(clusterPage_->groupingPage(), tr("Grouping"));
    pages_->addWidget(tabs_);
    setCentralWidget(pages_);

    proxy_->setSourceModel(nodes_);
    nodeView_->setModel(proxy_);
    nodeView_->setSortingEnabled(true);
    nodeView_->sortByColumn(NodeTableModel::Index, Qt::AscendingOrder);
    nodeView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    nodeView_->setAlternatingRowColors(true);
    nodeView_->verticalHeader()->hide();
    nodeView_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    nodeView_->setWordWrap(false);
    // Node names share long prefixes (/layer1/layer1.0/...); their ends tell them apart.
    nodeView_->setTextElideMode(Qt::ElideMiddle);
    auto* header = nodeView_->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(NodeTableModel::Name, QHeaderView::Stretch);
    header->setHighlightSections(false);

    connect(filterEdit_, &QLineEdit::textChanged, this, [this](const QString& text) {
        proxy_->setFilterText(text);
        updateCount();
    });

    addDockWidget(Qt::RightDockWidgetArea, summary_);
    addDockWidget(Qt::BottomDockWidgetArea, kernelDock_);
    properties_ = new PropertiesDock(this);
    addDockWidget(Qt::RightDockWidgetArea, properties_);
    breakdown_ = new LatencyBreakdownDock(this);
    addDockWidget(Qt::BottomDockWidgetArea, breakdown_);
    splitDockWidget(kernelDock_, breakdown_, Qt::Horizontal);
    comparison_ = new MeasuredComparisonDock(this);
    tabifyDockWidget(breakdown_, comparison_);
    breakdown_->raise();
    // Nothing to compare with until a measured dataset is open.
    comparison_->hide();
    comparison_->toggleViewAction()->setEnabled(false);
    connectGraph();
    connectLatency();
    connectPartition();
    installExportMenus(*this); // PNG/SVG from every chart's and view's context menu
    connect(kernelDock_, &KernelDock::kernelSelected, this, &MainWindow::selectNodes);
    connect(kernelDock_, &KernelDock::ruleSetFailed, this, [this](const QString& message) {
        warn(tr("Could not use these fusion rules"), message);
    });

    progress_->setMaximumWidth(220);
    progress_->setRange(0, 100);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancelButton_);
    busyDelay_->setSingleShot(true);
    busyDelay_->setInterval(kBusyDelayMs);
    connect(busyDelay_, &QTimer::timeout, this, [this] {
        progress_->show();
        cancelButton_->show();
    });
    setBusy(false);
    connect(cancelButton_, &QPushButton::clicked, loader_, &ModelLoadRunner::cancel);
    connect(loader_, &ModelLoadRunner::progress, this, [this](int percent, const QString& stage) {
        progress_->setValue(percent);
        progress_->setFormat(tr("%1: %p%").arg(stage));
    });
    connect(loader_, &ModelLoadRunner::loaded, this, &MainWindow::showModel);
    connect(loader_, &ModelLoadRunner::failed, this, &MainWindow::showFailure);
    connect(loader_, &ModelLoadRunner::cancelled, this, [this](const QString& path) {
        setBusy(false);
        statusBar()->showMessage(tr("Loading %1 cancelled").arg(QFileInfo(path).fileName()), 5000);
    });
    connect(recent_, &RecentFiles::changed, this, &MainWindow::updateRecentFiles);

    project_ = new ProjectController(this); // .cleave files, autosave, recovery
    connect(project_, &ProjectController::projectFileUsed, recent_, &RecentFiles::add);
    createMenus();
    updateRecentFiles();
    updateCount();
    // The node table and the docks show the document's model.
    connect(document_, &StudioDocument::modelChanged, this, [this](const QString& path) {
        const auto& model = document_->model();
        nodes_->setModel(model);
        summary_->setModel(model);
        comparison_->setModel(model, QFileInfo(path).completeBaseName());
    });
    QSettings settings;
    if (!restoreGeometry(settings.value("mainWindow/geometry").toByteArray()))
        resize(screen()->availableSize().boundedTo(QSize(1440, 900)) * 0.9);
    if (!restoreState(settings.value("mainWindow/state").toByteArray())) {
        resizeDocks({summary_, properties_},
                    {fontMetrics().averageCharWidth() * 44, fontMetrics().averageCharWidth() * 44},
                    Qt::Horizontal);
        // Most of the height to the graph; the kernel table shows a screenful of rows.
        resizeDocks({kernelDock_}, {fontMetrics().height() * 19}, Qt::Vertical);
        resizeDocks({kernelDock_, breakdown_}, {3 * width() / 5, 2 * width() / 5}, Qt::Horizontal);
    }
}

MainWindow::~MainWindow() = default;

const ModelPtr& MainWindow::model() const {
    return document_->model();
}

QString MainWindow::modelPath() const {
    return document_->modelPath();
}

void MainWindow::createMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    auto* open = file->addAction(tr("&Open…"), this, &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    // Rebuilt on every showing, so files deleted since start-up are gone from it.
    connect(recentMenu_, &QMenu::aboutToShow, this, &MainWindow::updateRecentFiles);
    file->addAction(tr("Open &Measurements…"), this, &MainWindow::openMeasurementsDialog);
    file->addAction(tr("Open &Cluster…"), this, &MainWindow::openClusterDialog);
    openMappingAction_ =
        file->addAction(tr("Open Ma&pping…"), this, &MainWindow::openMappingDialog);
    saveMappingAction_ =
        file->addAction(tr("&Save Mapping…"), this, &MainWindow::saveMappingDialog);
    saveMappingAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    project_->addActions(file, open, saveMappingAction_); // Ctrl+S saves the project
    exportPackageAction_ =
        file->addAction(tr("&Export AutoDiCE Package…"), this, &MainWindow::exportPackageDialog);
    exportPackageAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(partitionPage_, &PartitionPage::exportRequested, this,
            &MainWindow::exportPackageDialog);
    const auto updateMappingActions = [this] {
        const bool has = document_->mapping()->hasMapping();
        openMappingAction_->setEnabled(has);
        saveMappingAction_->setEnabled(has);
        exportPackageAction_->setEnabled(has && !exporting_);
    };
    connect(document_->mapping(), &PartitionDocument::mappingChanged, this,
            updateMappingActions);
    updateMappingActions();
    addExportViewAction(file, this); // Ctrl+Shift+E: the focused or largest view
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);

    auto* edit = menuBar()->addMenu(tr("&Edit"));
    // The edits of the cluster while the Cluster or Grouping tab shows, else of the mapping.
    auto* history = document_->history();
    const auto followTab = [this, history] {
        const bool cluster = tabs_->currentWidget() == clusterPage_ ||
                             tabs_->currentWidget() == clusterPage_->groupingPage();
        history->setActiveStack(cluster ? clusterPage_->undoStack()
                                        : document_->mapping()->undoStack());
    };
    connect(tabs_, &QTabWidget::currentChanged, this, followTab);
    followTab();
    auto* undo = history->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    edit->addAction(undo);
    auto* redo = history->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(redo);
    edit->addSeparator();
    // Finds in the graph or filters the table, whichever tab is showing.
    filterAction_ = edit->addAction(tr("&Find Nodes"), this, [this] {
        if (tabs_->currentWidget() == graphPage_)
            return graphPage_->focusSearch();
        filterEdit_->setFocus(Qt::ShortcutFocusReason);
        filterEdit_->selectAll();
    });
    filterAction_->setShortcut(QKeySequence::Find);
    filterAction_->setEnabled(false);

    auto* view = menuBar()->addMenu(tr("&View"));
    view->addAction(summary_->toggleViewAction());
    view->addAction(kernelDock_->toggleViewAction());
    view->addAction(properties_->toggleViewAction());
    view->addAction(breakdown_->toggleViewAction());
    view->addAction(comparison_->toggleViewAction());
    view->addSeparator();
    addThemeMenu(view);

    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Cleave"), this, [this] { showAboutBox(this); });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::updateRecentFiles() {
    const QStringList files = recent_->files();
    startPage_->setRecentFiles(files);
    recentMenu_->clear();
    for (int i = 0; i < files.size(); ++i) {
        // Only the first nine get a mnemonic digit; "&10" would make "1" ambiguous.
        const QString name = QFileInfo(files[i]).fileName();
        auto* action =
            recentMenu_->addAction(i < 9 ? QString("&%1 %2").arg(i + 1).arg(name) : name);
        action->setStatusTip(files[i]);
        action->setToolTip(files[i]);
        connect(action, &QAction::triggered, this, [this, path = files[i]] { openFile(path); });
    }
    if (files.isEmpty()) {
        recentMenu_->addAction(tr("No Recent Files"))->setEnabled(false);
    } else {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("Clear List"), recent_, &RecentFiles::clear);
    }
}

void MainWindow::openDialog() {
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Model or Project"), settings.value("lastFolder").toString(),
        tr("Models and projects (*.onnx *.cleave);;ONNX models (*.onnx);;Cleave projects "
           "(*.cleave);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue("lastFolder", QFileInfo(path).absolutePath());
    openFile(path);
}

void MainWindow::openFile(const QString& path) {
    if (path.endsWith(".cleave", Qt::CaseInsensitive)) {
        project_->openProject(path);
        return;
    }
    openModel(path, {});
}

void MainWindow::openModel(const QString& path, std::map<std::string, graph::Shape> inputShapes) {
    setBusy(true);
    statusBar()->showMessage(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    loader_->load(path, std::move(inputShapes));
}

void MainWindow::showModel(const QString& path, ModelPtr model) {
    setBusy(false);
    const auto warnings = static_cast<int>(model->warnings.size());
    document_->setModel(path, std::move(model)); // the docks observe it (connectDocument)
    pages_->setCurrentIndex(1);
    filterAction_->setEnabled(true);
    nodeView_->resizeColumnsToContents();
    nodeView_->horizontalHeader()->setSectionResizeMode(NodeTableModel::Name, QHeaderView::Stretch);
    updateCount();
    const QString name = QFileInfo(path).fileName();
    setWindowTitle(tr("Cleave — %1").arg(name));
    recent_->add(path);
    statusBar()->showMessage(
        warnings == 0   ? tr("Loaded %1").arg(name)
        : warnings == 1 ? tr("Loaded %1 with a warning: see the summary").arg(name)
                        : tr("Loaded %1 with %2 warnings: see the summary").arg(name).arg(warnings),
        8000);
    emit modelShown(path);
}

void MainWindow::showFailure(const QString& path, const QString& message) {
    setBusy(false);
    const QString name = QFileInfo(path).fileName();
    statusBar()->showMessage(tr("Could not open %1").arg(name), 8000);
    recent_->remove(path); // a file that no longer loads is no shortcut
    // One text, not text plus informative text: QMessageBox sizes itself by its main text, and
    // the short headline alone would squeeze the importer's message into a narrow column.
    warn(tr("Could not open model"), tr("Could not open %1.").arg(name) + "\n\n" + message);
    emit loadFailed(path, message);
}

void MainWindow::setBusy(bool busy) {
    if (busy) {
        progress_->setValue(0);
        progress_->setFormat(tr("%p%"));
        busyDelay_->start();
        return;
    }
    busyDelay_->stop();
    progress_->hide();
    cancelButton_->hide();
}

void MainWindow::updateCount() {
    const QLocale locale;
    const int all = nodes_->rowCount();
    const int shown = proxy_->rowCount();
    countLabel_->setText(
        shown == all ? tr("%1 nodes").arg(locale.toString(all))
                     : tr("%1 of %2 nodes").arg(locale.toString(shown), locale.toString(all)));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (std::any_of(urls.begin(), urls.end(), isModelFile))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    const auto model = std::find_if(urls.begin(), urls.end(), isModelFile);
    if (model == urls.end())
        return;
    event->acceptProposedAction();
    openFile(model->toLocalFile());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!project_->maybeClose()) { // Cancel: the window stays open
        event->ignore();
        return;
    }
    loader_->cancel();
    QSettings settings;
    settings.setValue("mainWindow/geometry", saveGeometry());
    settings.setValue("mainWindow/state", saveState());
    QMainWindow::closeEvent(event);
}

GraphView* MainWindow::graphView() const {
    return graphPage_->view();
}

// The graph, the tables and the properties dock show one choice: a pick in any of them is
// shown by the others. Programmatic selection emits nothing back, so no pick loops.
void MainWindow::connectGraph() {
    auto* graph = graphPage_->view();
    connect(document_, &StudioDocument::kernelsChanged, this, [this, graph] {
        const ModelPtr& model = document_->model();
        const KernelGraphPtr& kernels = document_->kernels();
        properties_->setGraph(model, kernels);
        graph->setGraph(model, kernels);
    });
    connect(graph, &GraphView::nodeActivated, this, [this](int node) {
        properties_->showNode(node);
        selectNodes({node});
    });
    connect(graph, &GraphView::kernelActivated, this, [this](int kernel) {
        kernelDock_->selectKernel(kernel);
        properties_->showKernel(kernel);
    });
    connect(kernelDock_, &KernelDock::currentKernelChanged, this, [this, graph](int kernel) {
        graph->selectKernel(kernel);
        properties_->showKernel(kernel);
    });
    connect(nodeView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this, graph](const QModelIndex& current) {
                if (!current.isValid())
                    return;
                const int node = proxy_->mapToSource(current).row();
                graph->selectNode(node);
                properties_->showNode(node);
            });
    connect(properties_, &PropertiesDock::nodeRequested, this, [this, graph](int node) {
        graph->selectNode(node);
        properties_->showNode(node);
        selectNodes({node});
    });
    connect(properties_, &PropertiesDock::kernelRequested, this, [this, graph](int kernel) {
        kernelDock_->selectKernel(kernel);
        graph->selectKernel(kernel);
        properties_->showKernel(kernel);
    });
}

// A prediction reaches every view of it; a measured run chosen for comparison is predicted too.
void MainWindow::connectLatency() {
    connect(document_, &StudioDocument::latencyChanged, this, [this](const LatencyReportPtr& report) {
        graphPage_->view()->setLatency(report);
        breakdown_->setReport(report);
        comparison_->setReport(report);
    });
    connect(comparison_, &MeasuredComparisonDock::runChosen, this, [this](MeasuredRunPtr run) {
        document_->setMeasuredRun(std::move(run));
        if (const auto& report = document_->latency()) // nothing changed: no new prediction
            comparison_->setReport(report);
    });
}

void MainWindow::openMeasurementsDialog() {
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Measured Dataset"), settings.value("lastMeasurementsFolder").toString(),
        tr("Measured datasets (*.json *.json.xz);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue("lastMeasurementsFolder", QFileInfo(path).absolutePath());
    openMeasurements(path);
}

void MainWindow::openMeasurements(const QString& path) {
    struct Outcome {
        MeasuredDatasetPtr dataset;
        QString error;
    };
    statusBar()->showMessage(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, path] {
        watcher->deleteLater();
        const Outcome outcome = watcher->result();
        if (!outcome.dataset) {
            statusBar()->showMessage(tr("Could not read %1").arg(QFileInfo(path).fileName()), 8000);
            warn(tr("Could not open measurements"), outcome.error);
            emit measurementsFailed(path, outcome.error);
            return;
        }
        statusBar()->showMessage(tr("Read %1 measured runs from %2")
                                     .arg(outcome.dataset->runs.size())
                                     .arg(QFileInfo(path).fileName()),
                                 8000);
        comparison_->setDataset(outcome.dataset);
        comparison_->toggleViewAction()->setEnabled(true);
        comparison_->show();
        comparison_->raise();
        emit measurementsLoaded(path);
    });
    watcher->setFuture(QtConcurrent::run([file = path.toStdString()]() -> Outcome {
        try {
            return {std::make_shared<const profile::MeasuredDataset>(
                        profile::load_measured_dataset(file)),
                    {}};
        } catch (const std::exception& e) {
            return {nullptr, QString::fromStdString(e.what())};
        }
    }));
}

void MainWindow::selectNodes(const QList<int>& nodes) {
    auto* selection = nodeView_->selectionModel();
    QItemSelection rows;
    for (const int node : nodes) {
        const auto index = proxy_->mapFromSource(nodes_->index(node, 0));
        if (index.isValid())
            rows.select(index, index.siblingAtColumn(NodeTableModel::ColumnCount - 1));
    }
    selection->select(rows, QItemSelectionModel::ClearAndSelect);
    if (!rows.isEmpty())
        nodeView_->scrollTo(rows.first().topLeft(), QAbstractItemView::PositionAtCenter);
}

// The Partition tab shows the document's mapping of its kernels onto its cluster; a kernel clicked
// in its strip is selected in the kernel dock, the graph and the properties dock.
void MainWindow::connectPartition() {
    connect(partitionPage_, &PartitionPage::kernelActivated, this,
            [this](int kernel) { kernelDock_->selectKernel(kernel); });
    connect(partitionPage_, &PartitionPage::openClusterRequested, this,
            &MainWindow::openClusterDialog);
    connect(partitionPage_, &PartitionPage::reopenClusterRequested, this, &MainWindow::openCluster);
    // The DSE tab searches what the Partition tab shows; a solution applied there is shown there.
    const auto updateDseTab = [this] {
        const auto& inputs = document_->mapping()->inputs();
        const int tab = tabs_->indexOf(dsePage_);
        tabs_->setTabEnabled(tab, (inputs && inputs->costs) || dsePage_->isRunning());
        tabs_->setTabToolTip(tab, tabs_->isTabEnabled(tab)
                                      ? tr("Search the Pareto front of mappings (NSGA-II)")
                                      : tr("Open a model and a cluster first"));
    };
    connect(document_->mapping(), &PartitionDocument::inputsChanged, this, updateDseTab);
    connect(dsePage_, &DsePage::finished, this, updateDseTab);
    updateDseTab();
    connect(dsePage_, &DsePage::solutionApplied, this,
            [this] { tabs_->setCurrentWidget(partitionPage_); });
    connect(dsePage_, &DsePage::exportPackageRequested, this, &MainWindow::exportPackageDialog);
}

bool MainWindow::openCluster(const QString& path) {
    ClusterPtr cluster;
    try {
        cluster = std::make_shared<const device::Cluster>(device::load_cluster(path.toStdString()));
    } catch (const std::exception& e) {
        const QString message = QString::fromStdString(e.what());
        statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(path).fileName()), 8000);
        warn(tr("Could not open cluster"),
             tr("Could not open %1.").arg(QFileInfo(path).fileName()) + "\n\n" + message);
        emit clusterFailed(path, message);
        return false;
    }
    QSettings().setValue("partition/lastCluster", QFileInfo(path).absoluteFilePath());
    document_->setCluster(cluster);
    tabs_->setCurrentWidget(partitionPage_);
    statusBar()->showMessage(tr("Opened cluster %1: %2 hosts, %3 PEs")
                                 .arg(QFileInfo(path).fileName())
                                 .arg(cluster->hosts.size())
                                 .arg(cluster->pes.size()),
                             8000);
    emit clusterOpened(path);
    return true;
}

void MainWindow::openClusterDialog() {
    if (const QString path = askForClusterFile(this); !path.isEmpty())
        openCluster(path);
}

void MainWindow::openMappingDialog() {
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Mapping"), settings.value("lastMappingFolder").toString(),
        tr("AutoDiCE mappings (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue("lastMappingFolder", QFileInfo(path).absolutePath());
    openMapping(path);
}

bool MainWindow::openMapping(const QString& path) {
    const QString error = partitionPage_->openMapping(path);
    if (error.isEmpty()) {
        tabs_->setCurrentWidget(partitionPage_);
        statusBar()->showMessage(tr("Opened mapping %1").arg(QFileInfo(path).fileName()), 8000);
        return true;
    }
    warn(tr("Could not open mapping"), error);
    return false;
}

void MainWindow::saveMappingDialog() {
    QSettings settings;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save Mapping"), settings.value("lastMappingFolder").toString() + "/mapping.json",
        tr("AutoDiCE mappings (*.json)"));
    if (path.isEmpty())
        return;
    settings.setValue("lastMappingFolder", QFileInfo(path).absolutePath());
    const QString error = partitionPage_->saveMapping(path);
    if (error.isEmpty()) {
        statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 8000);
        return;
    }
    warn(tr("Could not save mapping"), error);
}

void MainWindow::exportPackageDialog() {
    if (exporting_)
        return;
    QSettings settings;
    const QString suggested = settings.value("lastPackageFolder").toString() + "/" +
                              QFileInfo(modelPath()).completeBaseName() + "-package";
    const QString folder =
        QFileDialog::getSaveFileName(this, tr("Export AutoDiCE Package (a folder)"), suggested,
                                     QString(), nullptr, QFileDialog::DontConfirmOverwrite);
    if (folder.isEmpty())
        return;
    settings.setValue("lastPackageFolder", QFileInfo(folder).absolutePath());
    auto task = partitionPage_->exportTask(folder);
    if (!task)
        return;
    // Sub-models of a large model take a while to write: off the UI thread, one at a time.
    exporting_ = true;
    exportPackageAction_->setEnabled(false);
    statusBar()->showMessage(tr("Exporting %1…").arg(QFileInfo(folder).fileName()));
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, folder] {
        watcher->deleteLater();
        exporting_ = false;
        exportPackageAction_->setEnabled(document_->mapping()->hasMapping());
        const QString error = watcher->result();
        if (error.isEmpty()) {
            statusBar()->showMessage(tr("Exported the package to %1").arg(folder), 10000);
            return;
        }
        statusBar()->clearMessage();
        warn(tr("Could not export the package"), error);
    });
    watcher->setFuture(QtConcurrent::run(std::move(task)));
}

void MainWindow::warn(const QString& title, const QString& text) {
    // Window-modal, so the studio's work (predictions, loads) goes on behind it.
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setTextFormat(Qt::PlainText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

GroupingPage* MainWindow::groupingPage() const {
    return clusterPage_->groupingPage();
}

} // namespace cleave::ui
