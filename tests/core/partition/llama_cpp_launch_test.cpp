// llama.cpp command lines for a layer plan, parsed back as llama.cpp would read them: the
// --rpc servers, the -dev order, the -ts proportions assigned in single precision as its
// load_tensors does, then the -ot patterns matched against its tensor names (first match wins).
// Every layer must land on the host the plan gives it, over random plans, pinned or not.
#include "core/partition/llama_cpp_launch.hpp"

#include <QtTest>
#include <algorithm>
#include <map>
#include <random>
#include <regex>
#include <sstream>

using namespace cleave;

namespace {

std::vector<std::string> words(const std::string& command) {
    std::vector<std::string> out;
    std::string word;
    bool quoted = false;
    for (const char c : command) {
        if (c == '"') {
            quoted = !quoted;
        } else if (c == ' ' && !quoted) {
            if (!word.empty())
                out.push_back(word);
            word.clear();
        } else {
            word += c;
        }
    }
    if (!word.empty())
        out.push_back(word);
    return out;
}

std::vector<std::string> split(const std::string& text, char at) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, at);)
        out.push_back(part);
    return out;
}

// The host of every layer (and, last, of the output layer) as llama.cpp would place them.
std::vector<std::string> hosts_of_layers(const std::string& command, int layers) {
    const auto w = words(command);
    std::map<std::string, std::string> flag;
    for (std::size_t i = 1; i + 1 < w.size(); ++i)
        if (w[i].starts_with("-"))
            flag[w[i]] = w[i + 1];
    const auto servers = split(flag.at("--rpc"), ',');
    std::vector<std::string> device_host;
    for (const auto& name : split(flag.at("-dev"), ','))
        device_host.push_back(split(servers.at(std::stoul(name.substr(3))), ':')[0]);
    std::vector<float> cumulative;
    float sum = 0;
    for (const auto& p : split(flag.at("-ts"), ',')) {
        sum += std::stof(p);
        cumulative.push_back(sum);
    }
    for (auto& c : cumulative)
        c /= sum;
    std::vector<std::pair<std::regex, std::string>> overrides;
    if (flag.count("-ot"))
        for (const auto& item : split(flag.at("-ot"), ',')) {
            const auto eq = item.find('=');
            const std::string buffer = item.substr(eq + 1); // RPC0[host:port]
            overrides.emplace_back(std::regex(item.substr(0, eq)),
                                   buffer.substr(5, buffer.find(':') - 5));
        }
    std::vector<std::string> out;
    for (int il = 0; il <= layers; ++il) {
        const float x = static_cast<float>(il) / static_cast<float>(layers + 1);
        const auto d =
            std::upper_bound(cumulative.begin(), cumulative.end(), x) - cumulative.begin();
        std::string host = device_host.at(static_cast<std::size_t>(d));
        const std::string tensor = "blk." + std::to_string(il) + ".ffn_down.weight";
        int matches = 0;
        for (const auto& [pattern, to] : overrides)
            if (il < layers && std::regex_search(tensor, pattern) && matches++ == 0)
                host = to;
        // Pinned: every layer by exactly one pattern, whatever the proportions say.
        if (!overrides.empty() && il < layers && matches != 1)
            host = "matched by " + std::to_string(matches) + " patterns";
        out.push_back(host);
    }
    return out;
}

} // namespace

class LlamaCppLaunchTest : public QObject {
    Q_OBJECT

private slots:
    void linesParsedBackGiveEachHostItsLayers() {
        std::mt19937 random(17);
        int pinned = 0, proportional = 0;
        for (int trial = 0; trial < 400; ++trial) {
            const int hosts = 1 + static_cast<int>(random() % 8);
            const int layers = hosts + static_cast<int>(random() % 80);
            // Random cut points.
            std::vector<int> cuts;
            while (static_cast<int>(cuts.size()) < hosts - 1) {
                const int c = 1 + static_cast<int>(random() % static_cast<unsigned>(layers - 1));
                if (std::find(cuts.begin(), cuts.end(), c) == cuts.end())
                    cuts.push_back(c);
            }
            std::sort(cuts.begin(), cuts.end());
            cuts.insert(cuts.begin(), 0);
            cuts.push_back(layers);
            std::vector<partition::LlamaCppStage> stages;
            for (int s = 0; s < hosts; ++s)
                stages.push_back(
                    {"host" + std::to_string(s), cuts[static_cast<std::size_t>(s)],
                     cuts[static_cast<std::size_t>(s) + 1] - cuts[static_cast<std::size_t>(s)],
                     s % 3 != 2, 4});
            partition::LlamaCppOptions options;
            options.pin = trial % 2 == 1;
            const auto launch = partition::llama_cpp_launch(stages, layers, options);
            QCOMPARE(launch.servers.size(), stages.size());
            QCOMPARE(launch.main_host, std::string("host0"));
            const auto placed = hosts_of_layers(launch.main_command, layers);
            for (const auto& stage : stages)
                for (int l = stage.first_layer; l < stage.first_layer + stage.layers; ++l)
                    QVERIFY2(placed[static_cast<std::size_t>(l)] == stage.host,
                             qPrintable(QString::fromStdString(launch.main_command)));
            QCOMPARE(placed.back(), stages.back().host); // the output layer
            (launch.pinned ? pinned : proportional) += 1;
            QCOMPARE(launch.main_command.find(" -ot ") != std::string::npos, launch.pinned);
            for (std::size_t s = 0; s < stages.size(); ++s) {
                QVERIFY(launch.servers[s].command.starts_with("rpc-server -H 0.0.0.0 -p 50052"));
                QCOMPARE(launch.servers[s].command.find("-d CUDA0") != std::string::npos,
                         stages[s].gpu);
            }
        }
        // Whole-layer proportions come out exact in llama.cpp's arithmetic: pins only when asked.
        QCOMPARE(pinned, 200);
        QCOMPARE(proportional, 200);
    }

    void patternsMatchTheirLayersOnly() {
        const std::regex pattern(partition::llama_cpp_layer_pattern(1, 2));
        QVERIFY(std::regex_search("blk.1.attn_q.weight", pattern));
        QVERIFY(std::regex_search("blk.2.ffn_up.weight", pattern));
        QVERIFY(!std::regex_search("blk.12.attn_q.weight", pattern));
        QVERIFY(!std::regex_search("blk.21.attn_q.weight", pattern));
        QVERIFY(!std::regex_search("token_embd.weight", pattern));
    }

    void badStagesAreRefused() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 partition::llama_cpp_launch({{"a", 0, 2}, {"b", 3, 1}}, 4, {}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 partition::llama_cpp_launch({{"a", 0, 2}, {"a", 2, 2}}, 4, {}));
    }
};

QTEST_APPLESS_MAIN(LlamaCppLaunchTest)
#include "llama_cpp_launch_test.moc"
