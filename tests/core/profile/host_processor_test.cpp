// The processor Cleave runs on, named as a measured dataset names its device: the model name the
// kernel gives (else the machine type) and the count of logical CPUs.
#include "core/profile/host_processor.hpp"

#include <QtTest>
#include <fstream>
#include <thread>

using cleave::profile::host_processor;

class HostProcessorTest : public QObject {
    Q_OBJECT

private slots:
    void nameThenLogicalCpus() {
        const auto name = host_processor();
        const unsigned cpus = std::thread::hardware_concurrency();
        QVERIFY(cpus > 0);
        const std::string tail =
            ", " + std::to_string(cpus) + " logical CPU" + (cpus == 1 ? "" : "s");
        QVERIFY2(name.ends_with(tail), name.c_str());
        const auto part = name.substr(0, name.size() - tail.size());
        QVERIFY2(!part.empty() && part.front() != ' ' && part.front() != '\t', name.c_str());
    }

    void theModelNameIsTheKernels() {
        std::ifstream cpuinfo("/proc/cpuinfo");
        std::string model;
        for (std::string line; std::getline(cpuinfo, line);)
            if (line.starts_with("model name") && line.find(':') != std::string::npos) {
                model = line.substr(line.find(':') + 2);
                break;
            }
        if (model.empty())
            QSKIP("this kernel names no 'model name' in /proc/cpuinfo");
        QVERIFY2(host_processor().starts_with(model + ", "), host_processor().c_str());
    }
};

QTEST_GUILESS_MAIN(HostProcessorTest)
#include "host_processor_test.moc"
