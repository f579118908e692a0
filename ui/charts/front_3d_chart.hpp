// The DSE front as a 3-D scatter of three chosen quantities (Qt Data Visualization): the front
// in one series, the other points on show in a second, smaller one. The graph needs OpenGL, so it
// is made only when the widget is first shown; the series hold the data either way (an offscreen
// test reads them without a graph).
#pragma once

#include <QString>
#include <QVector3D>
#include <QWidget>
#include <vector>

class QLabel;
class QVBoxLayout;
class QScatter3DSeries;
class Q3DScatter;

namespace cleave::ui {

class Front3dChart : public QWidget {
    Q_OBJECT

public:
    explicit Front3dChart(QWidget* parent = nullptr);
    ~Front3dChart() override;

    // (x, y, z) per point; titles name the axes.
    void setPoints(const std::vector<QVector3D>& front, const std::vector<QVector3D>& others,
                   const QString& xTitle, const QString& yTitle, const QString& zTitle);
    QScatter3DSeries* frontSeries() const { return front_; }
    QScatter3DSeries* otherSeries() const { return others_; }
    bool hasGraph() const { return graph_ != nullptr; }

protected:
    void showEvent(QShowEvent* event) override;

private:
    void makeGraph();
    void applyTitles();

    QScatter3DSeries* front_;
    QScatter3DSeries* others_;
    Q3DScatter* graph_ = nullptr;
    QVBoxLayout* layout_;
    QLabel* placeholder_;
    QString titles_[3];
};

} // namespace cleave::ui
