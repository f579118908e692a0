// The steps of the studio's workflow as the GUI tests (and the docs' screenshots) take them:
// open a project, move a split point, run a short DSE, apply a solution, export, save.
#pragma once

#include "core/project/project.hpp"
#include "studio_waits.hpp"
#include "ui/document/dse_document.hpp"
#include "ui/dse/dse_page.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/partition/partition_page.hpp"
#include "ui/shell/project_controller.hpp"

#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

namespace cleave::test {

inline QString exampleCluster(const char* name = "nx8") {
    return QString(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/" + name + ".cluster.json";
}

// A project of the example model `model` over nx8.cluster.json, written into `folder`.
inline QString writeExampleProject(const QString& folder, const char* model,
                                   const QString& name = "workflow.cleave") {
    project::Project p;
    p.model = (QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/" + model + ".onnx").toStdString();
    p.cluster = project::ClusterRef{exampleCluster().toStdString(), std::nullopt};
    p.rules = "ort-cpu";
    const QString path = folder + "/" + name;
    project::save_project(path.toStdString(), p);
    return path;
}

// Opens a .cleave the way File > Open does and waits until everything in it is back.
inline bool openProject(ui::MainWindow& window, const QString& path) {
    QSignalSpy opened(window.project(), &ui::ProjectController::projectOpened);
    window.openFile(path);
    return opened.wait(60000) && opened.first().first().toString() == path;
}

// The docs' screenshots (scripts/docs-screenshots.sh): with CLEAVE_SCREENSHOT_DIR set, the
// window at CLEAVE_SCREENSHOT_SIZE (default 1366x768) showing `tab` is saved there as
// <step>-<size>.png. Without it, nothing.
inline void screenshot(ui::MainWindow& window, QWidget* tab, const QString& step) {
    const QString dir = qEnvironmentVariable("CLEAVE_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    const QString size = qEnvironmentVariable("CLEAVE_SCREENSHOT_SIZE", "1366x768");
    const auto parts = size.split('x');
    window.resize(parts.value(0).toInt(), parts.value(1).toInt());
    if (tab)
        window.centralTabs()->setCurrentWidget(tab);
    QTest::qWait(800); // layouts, charts and the graph settle
    window.grab().save(dir + "/" + step + "-" + size + ".png");
}

inline bool sameMapping(const partition::Mapping& a, const partition::Mapping& b) {
    return a.points == b.points && a.pes == b.pes;
}

// Moves the first split point one kernel right, adding one in the middle first when the
// mapping has none (two undo steps then, else one).
inline bool moveASplit(ui::PartitionDocument& document) {
    if (document.mapping().points.empty() && !document.addSplit(document.kernelCount() / 2))
        return false;
    const int point = document.mapping().points.front();
    return document.moveSplit(0, point + 1 <= document.highestPoint(0) ? point + 1 : point - 1);
}

// Population 8, `generations` generations (30, shared by the four stages over 2, 4, 8 and 16
// PEs), one analytical level: a fraction of a second. Empty when the
// search ran and found a front, else why not.
inline QString runShortDse(ui::DsePage& panel, int generations = 30) {
    panel.populationBox()->setValue(8);
    panel.generationsBox()->setValue(generations);
    panel.levelsBox()->setCurrentIndex(panel.levelsBox()->findData(1));
    QSignalSpy finished(&panel, &ui::DsePage::finished);
    if (!panel.run())
        return "not run: " + panel.errorText() + " " + panel.statusText();
    if (finished.count() == 0 && !finished.wait(60000))
        return "not finished: " + panel.statusText();
    return panel.document()->front().empty() ? "no front: " + panel.statusText() : QString();
}

// Applies the fastest solution of the front whose mapping differs from the one on show; its row,
// or -1 when every solution is the mapping on show.
inline int applyAnotherSolution(ui::DsePage& panel, const ui::PartitionDocument& document) {
    for (int i = 0; i < static_cast<int>(panel.document()->front().size()); ++i)
        if (!sameMapping(panel.document()->front()[static_cast<std::size_t>(i)].mapping, document.mapping()))
            return panel.applySolution(i) ? i : -1;
    return -1;
}

// The package of the mapping on show, written as File > Export does (without its dialog).
inline QString exportPackage(ui::MainWindow& window, const QString& folder) {
    const auto task = window.partitionPage()->exportTask(folder);
    return task ? task() : QString("nothing to export");
}

} // namespace cleave::test
