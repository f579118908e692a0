#include "ui/charts/front_3d_chart.hpp"

#include <Q3DCamera>
#include <Q3DScatter>
#include <Q3DScene>
#include <QLabel>
#include <QOpenGLContext>
#include <QScatter3DSeries>
#include <QScatterDataProxy>
#include <QVBoxLayout>
#include <QValue3DAxis>

namespace cleave::ui {

namespace {

QScatterDataArray* dataOf(const std::vector<QVector3D>& points) {
    auto* data = new QScatterDataArray;
    data->reserve(static_cast<qsizetype>(points.size()));
    for (const auto& p : points)
        data->append(QScatterDataItem(p));
    return data;
}

} // namespace

Front3dChart::Front3dChart(QWidget* parent)
    : QWidget(parent), front_(new QScatter3DSeries), others_(new QScatter3DSeries),
      layout_(new QVBoxLayout(this)), placeholder_(new QLabel(this)) {
    layout_->setContentsMargins(0, 0, 0, 0);
    layout_->addWidget(placeholder_);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);
    front_->setName(tr("front"));
    front_->setItemSize(0.12f);
    front_->setMesh(QAbstract3DSeries::MeshSphere);
    front_->setBaseColor(QColor(0x21, 0x66, 0xac));
    front_->setItemLabelFormat("@xTitle @xLabel, @yTitle @yLabel, @zTitle @zLabel");
    others_->setName(tr("other points"));
    others_->setItemSize(0.05f);
    others_->setMesh(QAbstract3DSeries::MeshPoint);
    others_->setBaseColor(QColor(0x90, 0x90, 0x90));
}

Front3dChart::~Front3dChart() {
    // Series the graph does not own yet.
    if (!graph_) {
        delete front_;
        delete others_;
    }
}

void Front3dChart::setPoints(const std::vector<QVector3D>& front,
                             const std::vector<QVector3D>& others, const QString& xTitle,
                             const QString& yTitle, const QString& zTitle) {
    front_->dataProxy()->resetArray(dataOf(front));
    others_->dataProxy()->resetArray(dataOf(others));
    titles_[0] = xTitle;
    titles_[1] = yTitle;
    titles_[2] = zTitle;
    applyTitles();
}

void Front3dChart::applyTitles() {
    if (!graph_)
        return;
    QValue3DAxis* axes[] = {graph_->axisX(), graph_->axisY(), graph_->axisZ()};
    for (int a = 0; a < 3; ++a) {
        axes[a]->setTitle(titles_[a]);
        axes[a]->setTitleVisible(true);
        axes[a]->setLabelFormat("%.3g");
    }
}

void Front3dChart::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (!graph_)
        makeGraph();
}

void Front3dChart::makeGraph() {
    // Without OpenGL (offscreen, some remote displays) the graph cannot draw: say so instead.
    QOpenGLContext probe;
    if (!probe.create()) {
        placeholder_->setText(tr("The 3-D view needs OpenGL, which this display does not offer."));
        return;
    }
    graph_ = new Q3DScatter;
    graph_->setShadowQuality(QAbstract3DGraph::ShadowQualityNone);
    graph_->scene()->activeCamera()->setCameraPreset(Q3DCamera::CameraPresetIsometricRight);
    graph_->scene()->activeCamera()->setZoomLevel(160); // the preset leaves the box small
    graph_->addSeries(front_);
    graph_->addSeries(others_);
    applyTitles();
    auto* container = QWidget::createWindowContainer(graph_, this);
    container->setMinimumSize(200, 160);
    placeholder_->hide();
    layout_->addWidget(container, 1);
}

} // namespace cleave::ui
