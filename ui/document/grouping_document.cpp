#include "ui/document/grouping_document.hpp"

#include "core/grouping/device_vectors.hpp"
#include "ui/document/cluster_document.hpp"

namespace cleave::ui {

GroupingDocument::GroupingDocument(ClusterDocument* cluster, QObject* parent)
    : QObject(parent), cluster_(cluster) {
    connect(cluster_, &ClusterDocument::changed, this, &GroupingDocument::clusterChanged);
}

grouping::GroupingRequest GroupingDocument::request() const {
    grouping::GroupingRequest request = settings_;
    request.cluster = cluster_->clusterPtr();
    request.vectors = vectors_.toStdString();
    return request;
}

void GroupingDocument::setSettings(const grouping::GroupingRequest& settings, bool edit) {
    settings_ = settings;
    settings_.cluster.reset();
    settings_.vectors.clear();
    if (edit)
        emit changed();
}

QString GroupingDocument::openVectors(const QString& path) {
    grouping::DeviceVectors vectors;
    try {
        vectors = grouping::load_device_vectors(path.toStdString());
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    vectors_ = path;
    benchmarks_ = vectors.benchmarks;
    vectorDevices_ = static_cast<int>(vectors.devices.size());
    emit vectorsChanged();
    emit changed();
    return {};
}

void GroupingDocument::setOutcome(GroupingOutcomePtr outcome) {
    outcome_ = std::move(outcome);
    outcomeHosts_ =
        outcome_ ? grouping::grouping_hosts(*outcome_->request.cluster) : decltype(outcomeHosts_){};
    emit outcomeChanged();
    emit changed();
}

void GroupingDocument::dropOutcome() {
    ++generation_; // a grouping running now is not for what is on show
    if (!outcome_)
        return;
    outcome_.reset();
    outcomeHosts_.clear();
    emit outcomeChanged();
}

// A result stays while the hosts and their devices do (a link edit leaves it true).
void GroupingDocument::clusterChanged() {
    if (outcome_ && grouping::grouping_hosts(cluster_->cluster()) != outcomeHosts_) {
        dropOutcome();
        emit outcomeDropped(tr("The hosts changed: group again."));
    }
}

nlohmann::json GroupingDocument::saveState() const {
    auto state = grouping::grouping_settings_json(request());
    state["result"] = outcome_ ? grouping::grouping_result_json(*outcome_) : nlohmann::json();
    return state;
}

QString GroupingDocument::restoreState(const nlohmann::json& state) {
    QString note;
    try {
        // A field left out keeps the setting on show.
        grouping::GroupingRequest r = request();
        grouping::read_grouping_settings(state, r);
        dropOutcome();
        if (!r.vectors.empty()) {
            if (const QString message = openVectors(QString::fromStdString(r.vectors));
                !message.isEmpty()) {
                emit restored(message, {});
                return message;
            }
        } else if (!vectors_.isEmpty()) {
            vectors_.clear();
            benchmarks_.clear();
            vectorDevices_ = 0;
            emit vectorsChanged();
        }
        settings_ = r;
        settings_.cluster.reset();
        settings_.vectors.clear();
        if (state.contains("result") && !state["result"].is_null()) {
            auto saved = grouping::read_grouping_result(state["result"], request());
            if (saved.hosts != grouping::grouping_hosts(cluster_->cluster())) {
                note = tr("The saved grouping was for other hosts: group again.");
            } else {
                saved.request.cluster = cluster_->clusterPtr();
                outcome_ = std::make_shared<const grouping::GroupingOutcome>(
                    grouping::regroup(saved.request, saved.sets));
                outcomeHosts_ = grouping::grouping_hosts(*outcome_->request.cluster);
            }
        }
    } catch (const std::exception& e) {
        const QString message = tr("grouping state: %1").arg(QString::fromStdString(e.what()));
        emit restored(message, {});
        return message;
    }
    emit restored({}, note);
    if (outcome_)
        emit outcomeChanged();
    return {};
}

} // namespace cleave::ui
