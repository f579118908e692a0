#include "ui/document/cluster_document.hpp"

#include "ui/document/cluster_commands.hpp"
#include "core/device/device_library.hpp"
#include "core/input_error.hpp"

#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QUndoStack>
#include <algorithm>
#include <filesystem>

namespace cleave::ui {

namespace {

QString messageOf(const std::exception& e) {
    if (const auto* input = dynamic_cast<const InputError*>(&e))
        return QString::fromStdString(
            input->place().empty() ? input->problem() : input->place() + ": " + input->problem());
    return QString::fromStdString(e.what());
}

// The cluster again from its parts, its PEs in host order.
device::Cluster rebuilt(const device::Cluster& cluster, std::vector<device::ClusterHost> hosts,
                        device::Link link, std::vector<device::LinkPair> pairs) {
    device::Cluster out =
        device::make_cluster(cluster.file, std::move(hosts), link, std::move(pairs));
    out.note = cluster.note;
    return out;
}

// A host named after a device file's stem or a library id: letters, digits, '-' and '.'.
QString namePrefix(const QString& device) {
    QString stem = device::is_device_file(device.toStdString())
                       ? QFileInfo(device).completeBaseName()
                       : device;
    stem.replace(QRegularExpression("[^A-Za-z0-9.-]"), "-");
    return stem.isEmpty() ? QString("host-") : stem + "-";
}

} // namespace

QString clusterProblem(const device::Cluster& cluster) {
    if (cluster.hosts.empty())
        return {};
    try {
        device::cluster_from_json(device::cluster_to_json(cluster), cluster.file);
    } catch (const std::exception& e) {
        return messageOf(e);
    }
    return {};
}

ClusterDocument::ClusterDocument(QObject* parent) : QObject(parent), undo_(new QUndoStack(this)) {}

void ClusterDocument::setCluster(const ClusterPtr& cluster) {
    undo_->clear();
    cluster_ = cluster;
    emit changed();
}

const device::Cluster& ClusterDocument::cluster() const {
    static const device::Cluster none;
    return cluster_ ? *cluster_ : none;
}

ClusterPtr ClusterDocument::clusterPtr() const {
    return cluster_ && !cluster_->hosts.empty() ? cluster_ : nullptr;
}

void ClusterDocument::show(const device::Cluster& cluster) {
    cluster_ = std::make_shared<const device::Cluster>(cluster);
    emit changed();
    emit edited();
}

QString ClusterDocument::apply(device::Cluster after, const QString& what) {
    if (QString problem = clusterProblem(after); !problem.isEmpty())
        return problem;
    undo_->push(new ChangeClusterCommand(this, cluster(), std::move(after), what));
    return {};
}

QString ClusterDocument::addHost(const QString& device, const QString& host) {
    const QString name = host.isEmpty() ? uniqueHostName(device) : host;
    device::ClusterHost added;
    added.host = name.toStdString();
    added.device_ref = device.toStdString();
    try {
        added.device = device::find_device(added.device_ref, "device");
    } catch (const std::exception& e) {
        return messageOf(e);
    }
    auto hosts = cluster().hosts;
    hosts.push_back(std::move(added));
    return apply(rebuilt(cluster(), std::move(hosts), cluster().default_link, cluster().pairs),
                 tr("Add host %1 (%2)").arg(name, device));
}

QString ClusterDocument::removeHosts(QList<int> rows) {
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    QSet<QString> removed;
    auto hosts = cluster().hosts;
    for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
        if (*it < 0 || *it >= hostCount())
            continue;
        removed.insert(QString::fromStdString(hosts[static_cast<std::size_t>(*it)].host));
        hosts.erase(hosts.begin() + *it);
    }
    if (removed.isEmpty())
        return {};
    // The links of a removed host go with it.
    std::vector<device::LinkPair> pairs;
    for (const auto& pair : cluster().pairs)
        if (!removed.contains(QString::fromStdString(pair.a)) &&
            !removed.contains(QString::fromStdString(pair.b)))
            pairs.push_back(pair);
    const QString what = removed.size() == 1 ? tr("Remove host %1").arg(*removed.begin())
                                             : tr("Remove %1 hosts").arg(removed.size());
    return apply(rebuilt(cluster(), std::move(hosts), cluster().default_link, std::move(pairs)),
                 what);
}

QString ClusterDocument::renameHost(int row, const QString& host) {
    if (row < 0 || row >= hostCount())
        return tr("no host %1").arg(row + 1);
    auto hosts = cluster().hosts;
    const std::string old = hosts[static_cast<std::size_t>(row)].host;
    const std::string name = host.trimmed().toStdString();
    if (name == old)
        return {};
    hosts[static_cast<std::size_t>(row)].host = name;
    // Its links follow the new name.
    auto pairs = cluster().pairs;
    for (auto& pair : pairs) {
        if (pair.a == old)
            pair.a = name;
        if (pair.b == old)
            pair.b = name;
    }
    return apply(rebuilt(cluster(), std::move(hosts), cluster().default_link, std::move(pairs)),
                 tr("Rename %1 to %2").arg(QString::fromStdString(old), host.trimmed()));
}

QString ClusterDocument::setDevice(int row, const QString& device) {
    if (row < 0 || row >= hostCount())
        return tr("no host %1").arg(row + 1);
    auto hosts = cluster().hosts;
    auto& host = hosts[static_cast<std::size_t>(row)];
    if (host.device_ref == device.toStdString())
        return {};
    try {
        host.device = device::find_device(device.toStdString(), "device");
    } catch (const std::exception& e) {
        return messageOf(e);
    }
    host.device_ref = device.toStdString();
    host.match.clear();   // chosen here, no longer matched from a platform.txt line
    host.threads.reset(); // the new device runs on every core of its own
    const QString name = QString::fromStdString(host.host);
    return apply(rebuilt(cluster(), std::move(hosts), cluster().default_link, cluster().pairs),
                 tr("Run %1 on %2").arg(name, device));
}

QString ClusterDocument::setDefaultLink(const device::Link& link) {
    if (link == cluster().default_link)
        return {};
    return apply(rebuilt(cluster(), cluster().hosts, link, cluster().pairs),
                 tr("Change the switch link"));
}

QString ClusterDocument::addPair(const QString& a, const QString& b, const device::Link& link) {
    auto pairs = cluster().pairs;
    pairs.push_back({a.toStdString(), b.toStdString(), link});
    return apply(rebuilt(cluster(), cluster().hosts, cluster().default_link, std::move(pairs)),
                 tr("Link %1 and %2").arg(a, b));
}

QString ClusterDocument::removePair(int index) {
    if (index < 0 || index >= static_cast<int>(cluster().pairs.size()))
        return {};
    auto pairs = cluster().pairs;
    const auto& pair = pairs[static_cast<std::size_t>(index)];
    const QString what = tr("Remove the link %1 - %2")
                             .arg(QString::fromStdString(pair.a), QString::fromStdString(pair.b));
    pairs.erase(pairs.begin() + index);
    return apply(rebuilt(cluster(), cluster().hosts, cluster().default_link, std::move(pairs)), what);
}

QString ClusterDocument::setPair(int index, const device::LinkPair& pair) {
    if (index < 0 || index >= static_cast<int>(cluster().pairs.size()))
        return tr("no link %1").arg(index + 1);
    auto pairs = cluster().pairs;
    auto& edited = pairs[static_cast<std::size_t>(index)];
    if (edited.a == pair.a && edited.b == pair.b && edited.link == pair.link)
        return {};
    edited = pair;
    return apply(rebuilt(cluster(), cluster().hosts, cluster().default_link, std::move(pairs)),
                 tr("Change the link %1 - %2")
                     .arg(QString::fromStdString(pair.a), QString::fromStdString(pair.b)));
}

QString ClusterDocument::replace(device::Cluster cluster, const QString& what) {
    return apply(std::move(cluster), what);
}

QString ClusterDocument::open(const QString& path) {
    device::Cluster cluster;
    try {
        cluster = device::load_cluster(path.toStdString());
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    // Device files named relative to the cluster file stay found wherever it is saved next.
    const auto folder = std::filesystem::path(cluster.file).parent_path();
    for (auto& host : cluster.hosts)
        if (device::is_device_file(host.device_ref) &&
            std::filesystem::path(host.device_ref).is_relative())
            host.device_ref = std::filesystem::absolute(folder / host.device_ref).string();
    return replace(std::move(cluster), tr("Open %1").arg(QFileInfo(path).fileName()));
}

QString ClusterDocument::saveProblem() const {
    if (cluster().hosts.empty())
        return tr("A cluster needs at least one host: add a device first.");
    return clusterProblem(cluster());
}

QString ClusterDocument::saveClusterFile(const QString& path) {
    if (QString problem = saveProblem(); !problem.isEmpty())
        return problem;
    try {
        device::save_cluster_file(cluster(), path.toStdString());
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    auto saved = cluster();
    saved.file = path.toStdString();
    cluster_ = std::make_shared<const device::Cluster>(std::move(saved));
    undo_->setClean();
    emit changed();
    return {};
}

QString ClusterDocument::exportPlatformFile(const QString& path) const {
    if (QString problem = saveProblem(); !problem.isEmpty())
        return problem;
    try {
        device::save_platform_file(device::platform_of(cluster()), path.toStdString());
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QString ClusterDocument::uniqueHostName(const QString& device) const {
    QSet<QString> taken;
    for (const auto& host : cluster().hosts)
        taken.insert(QString::fromStdString(host.host));
    // The naming of this device's hosts already in the cluster (nx01 .. nx08), if they have one.
    static const QRegularExpression numbered("^(.*?)(\\d+)$");
    QString prefix = namePrefix(device);
    int width = 2;
    for (const auto& host : cluster().hosts) {
        const auto match = numbered.match(QString::fromStdString(host.host));
        if (host.device_ref == device.toStdString() && match.hasMatch()) {
            prefix = match.captured(1);
            width = static_cast<int>(match.captured(2).size());
            break;
        }
    }
    int next = 1;
    for (const auto& host : taken) {
        const auto match = numbered.match(host);
        if (match.hasMatch() && match.captured(1) == prefix)
            next = std::max(next, match.captured(2).toInt() + 1);
    }
    QString name;
    do
        name = prefix + QString::number(next++).rightJustified(width, '0');
    while (taken.contains(name));
    return name;
}

QPair<QString, QString> ClusterDocument::unlinkedPair() const {
    for (std::size_t i = 0; i < cluster().hosts.size(); ++i)
        for (std::size_t j = i + 1; j < cluster().hosts.size(); ++j) {
            const auto& a = cluster().hosts[i].host;
            const auto& b = cluster().hosts[j].host;
            const bool linked =
                std::any_of(cluster().pairs.begin(), cluster().pairs.end(), [&](const auto& p) {
                    return (p.a == a && p.b == b) || (p.a == b && p.b == a);
                });
            if (!linked)
                return {QString::fromStdString(a), QString::fromStdString(b)};
        }
    return {};
}

} // namespace cleave::ui
