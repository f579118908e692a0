#include "ui/shell/main_window.hpp"

#include "ui/document/model_load_runner.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/document/task_runner.hpp"
#include "ui/graph/graph_page.hpp"
#include "ui/graph/graph_view.hpp"
#include "ui/latency/kernel_dock.hpp"
#include "ui/latency/kernel_table_model.hpp"
#include "ui/latency/latency_breakdown_dock.hpp"
#include "ui/latency/measured_comparison_dock.hpp"
#include "ui/graph/model_summary_dock.hpp"
#include "ui/graph/node_table_page.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/partition/partition_page.hpp"
#include "ui/dse/dse_page.hpp"
#include "ui/cluster/cluster_page.hpp"
#include "ui/cluster/grouping_page.hpp"
#include "ui/graph/properties_dock.hpp"
#include "ui/shell/recent_files.hpp"
#include "ui/shell/start_page.hpp"
#include "ui/shell/about_box.hpp"
#include "ui/shell/export_menus.hpp"
#include "ui/shell/model_dims_dialog.hpp"
#include "ui/shell/project_controller.hpp"
#include "ui/shell/theme.hpp"
#include "ui/export/view_export.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QUndoGroup>
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
    : QMainWindow(parent), document_(new StudioDocument(this)), recent_(new RecentFiles(this)),
      pages_(new QStackedWidget(this)), startPage_(new StartPage(this)),
      summary_(new ModelSummaryDock(document_, this)),
      kernelDock_(new KernelDock(document_, this)), progress_(new QProgressBar(this)),
      cancelButton_(new QPushButton(tr("Cancel"), this)), busyDelay_(new QTimer(this)) {
    setWindowTitle(tr("Cleave"));
    setAcceptDrops(true);

    pages_->addWidget(startPage_);
    connect(startPage_, &StartPage::openRequested, this, &MainWindow::openFile);

    tabs_ = new QTabWidget(this);
    tabs_->setDocumentMode(true);
    graphPage_ = new GraphPage(document_, tabs_);
    tabs_->addTab(graphPage_, tr("Graph"));
    nodeTable_ = new NodeTablePage(document_, tabs_);
    tabs_->addTab(nodeTable_, tr("Nodes"));
    partitionPage_ = new PartitionPage(document_->mapping(), tabs_);
    tabs_->addTab(partitionPage_, tr("Partition"));
    dsePage_ = new DsePage(document_->dse(), tabs_);
    tabs_->addTab(dsePage_, tr("DSE"));
    clusterPage_ =
        new ClusterPage(document_->clusterEditor(), document_->grouping(), tabs_);
    tabs_->addTab(clusterPage_, tr("Cluster"));
    tabs_->addTab(clusterPage_->groupingPage(), tr("Grouping"));
    pages_->addWidget(tabs_);
    setCentralWidget(pages_);

    addDockWidget(Qt::RightDockWidgetArea, summary_);
    addDockWidget(Qt::BottomDockWidgetArea, kernelDock_);
    properties_ = new PropertiesDock(document_, this);
    addDockWidget(Qt::RightDockWidgetArea, properties_);
    breakdown_ = new LatencyBreakdownDock(document_, this);
    addDockWidget(Qt::BottomDockWidgetArea, breakdown_);
    splitDockWidget(kernelDock_, breakdown_, Qt::Horizontal);
    comparison_ = new MeasuredComparisonDock(document_, this);
    tabifyDockWidget(breakdown_, comparison_);
    breakdown_->raise();
    // Nothing to compare with until a measured dataset is open.
    comparison_->hide();
    comparison_->toggleViewAction()->setEnabled(false);
    connectPartition();
    installExportMenus(*this); // PNG/SVG from every chart's and view's context menu
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
    connect(cancelButton_, &QPushButton::clicked, document_, &StudioDocument::cancelLoad);
    exporter_ = new TaskRunner(this);
    observeDocument();
    connect(recent_, &RecentFiles::changed, this, &MainWindow::updateRecentFiles);

    project_ = new ProjectController(this, document_); // .cleave files, autosave, recovery
    connect(project_, &ProjectController::projectFileUsed, recent_, &RecentFiles::add);
    startPage_->setExampleProject(ProjectController::exampleProjectPath());
    createMenus();
    updateRecentFiles();
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
    modelDimsAction_ = file->addAction(tr("Model &Dims…"), this, &MainWindow::modelDimsDialog);
    modelDimsAction_->setEnabled(false); // until a model is asked for
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
        exportPackageAction_->setEnabled(has && !exporter_->isRunning());
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
        nodeTable_->focusFilter();
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

void MainWindow::openModel(const QString& path, std::map<std::string, graph::Shape> inputShapes,
                           graph::DimBindings dims) {
    document_->openModel(path, std::move(inputShapes), std::move(dims));
}

void MainWindow::modelDimsDialog() {
    const QString path = document_->requestedPath();
    if (path.isEmpty())
        return;
    auto* dialog =
        new ModelDimsDialog(QFileInfo(path).fileName(), document_->requestedDims(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, path] {
        openModel(path, document_->requestedShapes(), dialog->bindings());
    });
    dialog->open();
}

// What the window shows of the document's flows: loading, measured datasets, mappings opened.
void MainWindow::observeDocument() {
    connect(document_, &StudioDocument::loadStarted, this, [this](const QString& path) {
        modelDimsAction_->setEnabled(true);
        setBusy(true);
        statusBar()->showMessage(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    });
    connect(document_->loader(), &ModelLoadRunner::progress, this,
            [this](int percent, const QString& stage) {
                progress_->setValue(percent);
                progress_->setFormat(tr("%1: %p%").arg(stage));
            });
    connect(document_, &StudioDocument::modelChanged, this, &MainWindow::showModel);
    connect(document_, &StudioDocument::loadFailed, this, &MainWindow::showFailure);
    connect(document_, &StudioDocument::loadCancelled, this, [this](const QString& path) {
        setBusy(false);
        statusBar()->showMessage(tr("Loading %1 cancelled").arg(QFileInfo(path).fileName()), 5000);
    });
    connect(document_, &StudioDocument::datasetChanged, this, [this](const QString& path) {
        statusBar()->showMessage(tr("Read %1 measured runs from %2")
                                     .arg(document_->dataset()->runs.size())
                                     .arg(QFileInfo(path).fileName()),
                                 8000);
        comparison_->toggleViewAction()->setEnabled(true);
        comparison_->show();
        comparison_->raise();
        emit measurementsLoaded(path);
    });
    connect(document_, &StudioDocument::datasetFailed, this,
            [this](const QString& path, const QString& error) {
                statusBar()->showMessage(tr("Could not read %1").arg(QFileInfo(path).fileName()),
                                         8000);
                warn(tr("Could not open measurements"), error);
                emit measurementsFailed(path, error);
            });
    connect(document_, &StudioDocument::mappingFailed, this,
            [this](const QString&, const QString& error) {
                if (!document_->isApplying()) // a project's problems are said once, by it
                    warn(tr("Could not open mapping"), error);
            });
}

void MainWindow::showModel(const QString& path) {
    setBusy(false);
    const auto warnings = static_cast<int>(document_->model()->warnings.size());
    pages_->setCurrentIndex(1);
    filterAction_->setEnabled(true);
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
    // the short headline alone would squeeze the importer's message into a narrow column. A
    // project being opened says its problems once, itself.
    if (!document_->isApplying())
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
    document_->cancelLoad();
    QSettings settings;
    settings.setValue("mainWindow/geometry", saveGeometry());
    settings.setValue("mainWindow/state", saveState());
    QMainWindow::closeEvent(event);
}

QTableView* MainWindow::nodeView() const {
    return nodeTable_->view();
}

QLineEdit* MainWindow::filterEdit() const {
    return nodeTable_->filterEdit();
}

GraphView* MainWindow::graphView() const {
    return graphPage_->view();
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
    statusBar()->showMessage(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    document_->openDataset(path);
}

// The Partition tab shows the document's mapping of its kernels onto its cluster; a kernel clicked
// in its strip is selected in the kernel dock, the graph and the properties dock.
void MainWindow::connectPartition() {
    connect(partitionPage_, &PartitionPage::kernelActivated, document_,
            &StudioDocument::selectKernel);
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
    if (const QString error = document_->openCluster(path); !error.isEmpty()) {
        statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(path).fileName()), 8000);
        warn(tr("Could not open cluster"),
             tr("Could not open %1.").arg(QFileInfo(path).fileName()) + "\n\n" + error);
        emit clusterFailed(path, error);
        return false;
    }
    QSettings().setValue("partition/lastCluster", QFileInfo(path).absoluteFilePath());
    tabs_->setCurrentWidget(partitionPage_);
    const auto cluster = document_->cluster();
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
    const QString error = document_->openMappingFile(path);
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
    if (exporter_->isRunning())
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
    exportPackageAction_->setEnabled(false);
    statusBar()->showMessage(tr("Exporting %1…").arg(QFileInfo(folder).fileName()));
    exporter_->start<QString>(std::move(task), [this, folder](const QString& error) {
        exportPackageAction_->setEnabled(document_->mapping()->hasMapping());
        if (error.isEmpty()) {
            statusBar()->showMessage(tr("Exported the package to %1").arg(folder), 10000);
            return;
        }
        statusBar()->clearMessage();
        warn(tr("Could not export the package"), error);
    });
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
