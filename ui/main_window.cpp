#include "main_window.hpp"

#include "model_summary_dock.hpp"
#include "node_filter_proxy.hpp"
#include "node_table_model.hpp"
#include "recent_files.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QVBoxLayout>
#include <cleave/version.hpp>

namespace cleave::ui {

namespace {
bool isModelFile(const QUrl& url) {
    return url.isLocalFile() && url.toLocalFile().endsWith(".onnx", Qt::CaseInsensitive);
}
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), loader_(new ModelLoader(this)), nodes_(new NodeTableModel(this)),
      proxy_(new NodeFilterProxy(this)), recent_(new RecentFiles(this)),
      pages_(new QStackedWidget(this)), nodeView_(new QTableView(this)),
      filterEdit_(new QLineEdit(this)), countLabel_(new QLabel(this)),
      summary_(new ModelSummaryDock(this)), progress_(new QProgressBar(this)),
      cancelButton_(new QPushButton(tr("Cancel"), this)) {
    setWindowTitle(tr("Cleave"));
    setAcceptDrops(true);

    auto* empty = new QLabel(tr("Open an ONNX model (Ctrl+O) or drop one here"), this);
    empty->setAlignment(Qt::AlignCenter);
    empty->setStyleSheet("color: gray; font-size: 15px;");
    pages_->addWidget(empty);

    auto* tablePage = new QWidget(this);
    auto* layout = new QVBoxLayout(tablePage);
    layout->setContentsMargins(6, 6, 6, 0);
    auto* filterRow = new QHBoxLayout;
    filterEdit_->setPlaceholderText(
        tr("Filter by name, op or shape; every term must match (Ctrl+F)"));
    filterEdit_->setClearButtonEnabled(true);
    filterRow->addWidget(filterEdit_, 1);
    filterRow->addWidget(countLabel_);
    layout->addLayout(filterRow);
    layout->addWidget(nodeView_, 1);
    pages_->addWidget(tablePage);
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

    progress_->setMaximumWidth(220);
    progress_->setRange(0, 100);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancelButton_);
    setBusy(false);
    connect(cancelButton_, &QPushButton::clicked, loader_, &ModelLoader::cancel);
    connect(loader_, &ModelLoader::progress, this, [this](int percent, const QString& stage) {
        progress_->setValue(percent);
        statusBar()->showMessage(tr("Loading: %1").arg(stage));
    });
    connect(loader_, &ModelLoader::loaded, this, &MainWindow::showModel);
    connect(loader_, &ModelLoader::failed, this, &MainWindow::showFailure);
    connect(loader_, &ModelLoader::cancelled, this, [this](const QString& path) {
        setBusy(false);
        statusBar()->showMessage(tr("Loading %1 cancelled").arg(QFileInfo(path).fileName()), 5000);
    });
    connect(recent_, &RecentFiles::changed, this, &MainWindow::rebuildRecentMenu);

    createMenus();
    QSettings settings;
    if (!restoreGeometry(settings.value("mainWindow/geometry").toByteArray()))
        resize(1280, 760);
    restoreState(settings.value("mainWindow/state").toByteArray());
}

MainWindow::~MainWindow() = default;

const ModelPtr& MainWindow::model() const {
    return nodes_->model();
}

void MainWindow::createMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    auto* open = file->addAction(tr("&Open…"), this, &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    auto* edit = menuBar()->addMenu(tr("&Edit"));
    auto* find = edit->addAction(tr("&Filter Nodes"), this, [this] {
        filterEdit_->setFocus();
        filterEdit_->selectAll();
    });
    find->setShortcut(QKeySequence::Find);

    auto* view = menuBar()->addMenu(tr("&View"));
    view->addAction(summary_->toggleViewAction());

    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Cleave"), this, [this] {
        QMessageBox::about(
            this, tr("About Cleave"),
            tr("<h3>Cleave %1</h3><p>Split one neural network across a cluster of edge "
               "devices.</p><p>Qt %2<br>libonnx %3<br>protobuf %4</p>")
                .arg(kVersion, qVersion(), kOnnxVersion, kProtobufVersion));
    });
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList files = recent_->files();
    for (int i = 0; i < files.size(); ++i) {
        auto* action = recentMenu_->addAction(
            QString("&%1 %2").arg(i + 1).arg(QFileInfo(files[i]).fileName()));
        action->setToolTip(files[i]);
        connect(action, &QAction::triggered, this, [this, path = files[i]] { openFile(path); });
    }
    if (!files.isEmpty()) {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("Clear List"), recent_, &RecentFiles::clear);
    }
    recentMenu_->setEnabled(!files.isEmpty());
}

void MainWindow::openDialog() {
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open ONNX Model"),
                                                      settings.value("lastFolder").toString(),
                                                      tr("ONNX models (*.onnx);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue("lastFolder", QFileInfo(path).absolutePath());
    openFile(path);
}

void MainWindow::openFile(const QString& path) {
    setBusy(true);
    statusBar()->showMessage(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    loader_->load(path);
}

void MainWindow::showModel(const QString& path, ModelPtr model) {
    setBusy(false);
    path_ = path;
    const auto warnings = model->warnings.size();
    nodes_->setModel(std::move(model));
    summary_->setModel(nodes_->model());
    pages_->setCurrentIndex(1);
    nodeView_->resizeColumnsToContents();
    nodeView_->horizontalHeader()->setSectionResizeMode(NodeTableModel::Name, QHeaderView::Stretch);
    updateCount();
    setWindowTitle(tr("Cleave — %1").arg(QFileInfo(path).fileName()));
    recent_->add(path);
    statusBar()->showMessage(warnings == 0 ? tr("Loaded %1").arg(QFileInfo(path).fileName())
                                           : tr("Loaded %1 with %n warning(s): see the summary",
                                                nullptr, static_cast<int>(warnings))
                                                 .arg(QFileInfo(path).fileName()),
                             8000);
    emit modelShown(path);
}

void MainWindow::showFailure(const QString& path, const QString& message) {
    setBusy(false);
    statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(path).fileName()), 8000);
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not open model"), message,
                                QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    emit loadFailed(path, message);
}

void MainWindow::setBusy(bool busy) {
    progress_->setVisible(busy);
    cancelButton_->setVisible(busy);
    if (busy)
        progress_->setValue(0);
}

void MainWindow::updateCount() {
    countLabel_->setText(tr("%1 of %2 nodes").arg(proxy_->rowCount()).arg(nodes_->rowCount()));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (std::any_of(urls.begin(), urls.end(), isModelFile))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    for (const auto& url : event->mimeData()->urls()) {
        if (isModelFile(url)) {
            openFile(url.toLocalFile());
            event->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    loader_->cancel();
    QSettings settings;
    settings.setValue("mainWindow/geometry", saveGeometry());
    settings.setValue("mainWindow/state", saveState());
    QMainWindow::closeEvent(event);
}

} // namespace cleave::ui
