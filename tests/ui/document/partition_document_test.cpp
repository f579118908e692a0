// The Partition tab's document on ResNet-18 over the eight Jetson Xavier NX boards of nx8: inputs
// predicted off the UI thread with the default mapping, each edit one undo step (the moves of one
// drag merged), refused edits recording nothing, and a notice that new inputs clear.
#include "core/device/cluster.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "ui/document/partition_document.hpp"

#include <QSignalSpy>
#include <QUndoStack>
#include <QtTest>

using cleave::ui::PartitionDocument;

namespace {

cleave::ui::PartitionRequest resnet18OnNx8() {
    static const auto model = std::make_shared<const cleave::graph::Model>(
        cleave::graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx"));
    static const auto kernels = std::make_shared<const cleave::fusion::KernelGraph>(
        cleave::fusion::detect_kernels(*model, cleave::fusion::find_fusion_method("ort-cpu")));
    static const auto cluster = std::make_shared<const cleave::device::Cluster>(
        cleave::device::load_cluster(std::string(CLEAVE_EXAMPLE_CLUSTERS_DIR) +
                                     "/nx8.cluster.json"));
    return {model, kernels, cluster, "ort-cpu"};
}

// A document with its inputs predicted, and no history.
void prepare(PartitionDocument& document) {
    QSignalSpy prepared(&document, &PartitionDocument::prepared);
    document.prepare(resnet18OnNx8());
    QVERIFY(document.isPreparing());
    QVERIFY(prepared.wait(30000));
}

} // namespace

class PartitionDocumentTest : public QObject {
    Q_OBJECT

private slots:
    void preparedInputsCostEveryKernelOnEveryPeAndShowTheDefaultMapping() {
        PartitionDocument document;
        prepare(document);
        QVERIFY(!document.isPreparing());
        QVERIFY(document.failure().isEmpty());
        const auto& inputs = document.inputs();
        QVERIFY(inputs && inputs->costs);
        QCOMPARE(inputs->peCount(), 16);
        QCOMPARE(document.kernelCount(), 40);
        for (int pe = 0; pe < inputs->peCount(); ++pe)
            QCOMPARE(inputs->kernel_ms[static_cast<std::size_t>(pe)].size(), std::size_t{40});
        QVERIFY(document.hasMapping());
        QVERIFY(document.evaluation().throughput_per_s > 0);
        QCOMPARE(document.undoStack()->count(), 0);
    }

    void aRequestWithoutAClusterClearsAtOnce() {
        PartitionDocument document;
        prepare(document);
        auto request = resnet18OnNx8();
        request.cluster = nullptr;
        document.prepare(request);
        QVERIFY(!document.isPreparing());
        QVERIFY(!document.inputs());
        QVERIFY(!document.hasMapping());
    }

    void eachEditIsOneUndoStepAndADragIsOne() {
        PartitionDocument document;
        prepare(document);
        // From one segment on the default mapping's first PE.
        const int pe = document.mapping().pes.front();
        document.replaceMapping({{}, {pe}}, "one segment");
        document.undoStack()->clear();
        QVERIFY(document.addSplit(20));
        QCOMPARE(document.mapping().points, std::vector<int>{20});
        QCOMPARE(document.segmentCount(), 2);
        QVERIFY(document.mapping().pes[1] != pe); // an idle PE takes the new segment
        QVERIFY(document.moveSplit(0, 21, 7));
        QVERIFY(document.moveSplit(0, 22, 7));
        QCOMPARE(document.mapping().points, std::vector<int>{22});
        QCOMPARE(document.undoStack()->count(), 2); // the add, and one drag
        document.undoStack()->undo();
        QCOMPARE(document.mapping().points, std::vector<int>{20});
        document.undoStack()->undo();
        QVERIFY(document.mapping().points.empty());
        QCOMPARE(document.mapping().pes, std::vector<int>{pe});
    }

    void editsThatChangeNothingRecordNothing() {
        PartitionDocument document;
        prepare(document);
        QVERIFY(!document.moveSplit(99, 3));
        QVERIFY(!document.addSplit(0));
        QVERIFY(!document.addSplit(document.kernelCount()));
        QVERIFY(!document.assignSegment(0, document.mapping().pes.front()));
        QVERIFY(!document.assignSegment(0, 1000));
        QCOMPARE(document.undoStack()->count(), 0);
    }

    void newInputsClearTheNotice() {
        PartitionDocument document;
        prepare(document);
        QSignalSpy noticed(&document, &PartitionDocument::noticeChanged);
        document.setNotice("mapping.json cuts through kernels");
        document.setNotice("mapping.json cuts through kernels");
        QCOMPARE(noticed.count(), 1);
        prepare(document);
        QVERIFY(document.notice().isEmpty());
        QCOMPARE(noticed.count(), 2);
    }
};

QTEST_MAIN(PartitionDocumentTest)
#include "partition_document_test.moc"
