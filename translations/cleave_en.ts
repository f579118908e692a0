<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>QObject</name>
    <message>
        <source>%1 GiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clusters (*.cluster.json *.json *.txt);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 segment(s):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  kernels %1–%2 on %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 inferences/s, max memory %2 MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, max energy %1 mJ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, latency %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>found in stage %1, level %2 (%3), generation %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Population</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Levels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;br&gt;%1 MACs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernel %1: &lt;b&gt;%2&lt;/b&gt;%3&lt;br&gt;%4, %5 nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
%2 nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms on %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;br&gt;kernel %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(omitted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (weight)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (model input)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (model output)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 thread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 threads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move split %1 to kernel %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add split at kernel %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove split at kernel %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run segment %1 on %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2 nodes (double-click to open)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui</name>
    <message>
        <source>%1 (running %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not built</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;Cleave %1&lt;/h3&gt;&lt;p&gt;Split one neural network across a cluster of edge devices.&lt;/p&gt;&lt;p&gt;Built with:&lt;/p&gt;&lt;table&gt;%2&lt;/table&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Cleave</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as PNG/SVG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save this view as a PNG image or an SVG drawing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export &amp;View…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the focused chart or view, else the largest one on show, as PNG or SVG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No chart or view on show to export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG drawings (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported %1 (%2 × %3 pixels)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, drawn at %1x to stay within %2 pixels a side; SVG keeps every detail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not export</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::ClusterDocument</name>
    <message>
        <source>Add host %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove host %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1 hosts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no host %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename %1 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1 on %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change the switch link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Link %1 and %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the link %1 - %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no link %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change the link %1 - %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A cluster needs at least one host: add a device first.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::ClusterHostModel</name>
    <message>
        <source>group %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Matched from the platform file: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak FP32 GFLOP/s of each PE, in the order of the PEs column; * derived as cores x clock x FLOP per clock where no document gives the rate (cleave devices show %1); – where no figure is known</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PEs (AutoDiCE keys)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak FP32 GFLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::ClusterLinkModel</name>
    <message>
        <source>any host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>any other (switch)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The link between any two hosts without a direct link of their own: through the switch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A direct link between two hosts; it replaces the switch&apos;s for them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bandwidth (Gbit/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency (us)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected a number, found &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::ClusterPage</name>
    <message>
        <source>New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An empty cluster (one undo step)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A cluster file (.cluster.json) or an AutoDiCE platform.txt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the cluster as a cluster file (.cluster.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export platform.txt…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the cluster as AutoDiCE&apos;s platform.txt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redo %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Letters, digits, &apos;-&apos; and &apos;.&apos;; empty: the suggested name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the selected hosts and their links (Delete)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>as host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hosts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add Link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A direct link between two hosts, replacing the switch&apos;s for them; pick its hosts in the table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove Link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Links (the first row is the switch between any two hosts)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>new cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hosts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PEs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>direct link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>direct links</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select the hosts to remove first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A link joins two hosts: add another host first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every pair of hosts has its own link already.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a direct link to remove (the switch stays).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Cluster File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cluster files (*.cluster.json *.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export platform.txt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AutoDiCE platform files (*.txt);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::DseAxisModel</name>
    <message>
        <source>throughput (1/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max memory (MiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max energy (mJ)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>latency (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>generation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> mJ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (generation)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::DseCharts</name>
    <message>
        <source>The third axis of the 3-D view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the colour of a point or line shows; generation: when the search first met the mapping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hidden</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>marked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mappings the search evaluated that the front dominates (better or equal in every objective): hidden, small dots, or hollow squares</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mappings the search evaluated that overflow a device&apos;s memory or whose PEs would wait on each other: hidden, small dots, or red crosses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scatter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parallel coordinates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>3-D</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On the front.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dominated by the front.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not dominated by the front: the same figures as a solution on it, or figures of another level.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Infeasible: a PE runs segments before and after another PE&apos;s, so the two would wait on each other; AutoDiCE cannot run it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Infeasible: overflows a device&apos;s memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An exact optimum: the dynamic program over the decoder&apos;s layer ranges and the hosts&apos; orders (cleave dse --exact). Click to show it in the Partition tab.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::DseDocument</name>
    <message>
        <source>No front to export: run a search first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot export the front: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::DseFrontModel</name>
    <message>
        <source>(no split)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throughput (1/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bottleneck (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max memory (MiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max energy (mJ)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Level</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mapping (points | PEs)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::DsePage</name>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%v / %m evaluations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Front: x</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>y</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>z (3-D)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>colour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Front…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the front as CSV or JSON (as cleave dse --json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Package…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply the selected solution and write it as an AutoDiCE package</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dominated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Infeasible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a solution to show its mapping in the Partition tab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused after the current generation. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a model and a cluster: the search maps the Partition tab&apos;s kernels onto the cluster&apos;s PEs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 kernels on %2 PEs with latencies. Run searches for the mappings no other mapping beats in every objective.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n PE(s) without latencies left out (%1)</source>
        <translation>
            <numerusform>%n PE without latencies left out (%1)</numerusform>
            <numerusform>%n PEs without latencies left out (%1)</numerusform>
        </translation>
    </message>
    <message>
        <source>Starting the search…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resumed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelling after the current generation…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage %1 (%2 PEs), level %3 (%4): generation %5/%6, phase %7/%8. Front: %9 solutions, hypervolume %10.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The search failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The search was cancelled: the Partition tab shows other kernels or another cluster now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled after %1 evaluations: the front so far, %2 solutions, hypervolume %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done: %1 evaluations, %2 solutions on the front, hypervolume %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (Infeasible: shown draws them).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Click a point or a row to show it in the Partition tab.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Partition tab shows other kernels or another cluster now: run the search again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DSE solution (%1 inferences/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Wrote the front (%n solution(s)) to %1.</source>
        <translation>
            <numerusform>Wrote the front (%n solution) to %1.</numerusform>
            <numerusform>Wrote the front (%n solutions) to %1.</numerusform>
        </translation>
    </message>
    <message>
        <source>Export Front</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot restore the DSE tab: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restored front: %1 solutions after %2 evaluations. Click a point or a row to show it in the Partition tab.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exact layer plans (stars): least time per token %1 ms (the front&apos;s best %2 ms); least slowest stage %3 ms (the front&apos;s best %4 ms).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::DseSettingsForm</name>
    <message>
        <source>Search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>split points (SPE)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PE per kernel (naive)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SPE: split genes and a PE gene per segment; naive: a PE gene per kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Individuals per generation: at least 8, a multiple of 4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The budget is population x (generations + 1) evaluations, shared by all stages and levels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>auto (ceil(log2 N))</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 (all PEs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 (analytical)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2 (analytical, then replay)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency objective</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also minimise the pipeline latency of one input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Encoding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Population</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Levels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::Front3dChart</name>
    <message>
        <source>front</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>other points</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The 3-D view needs OpenGL, which this display does not offer.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::GraphMinimap</name>
    <message>
        <source>Overview: click or drag to move the view</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::GraphPage</name>
    <message>
        <source>Previous</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next match (Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find nodes by name or op; every term must match (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernel latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Op category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour nodes by their kernel&apos;s predicted latency on the device chosen in the Kernels dock, or by op category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>−</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom out (−)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom in (+)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1:1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Actual size (0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit the whole graph (F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Collapse</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draw every fused kernel as one box over its nodes; double-click a kernel to collapse or expand it alone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fold Blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draw every block (a repeated layer&apos;s or a large model&apos;s name scope) as one box; double-click a block to open or fold it alone</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::GraphView</name>
    <message>
        <source>Could not lay out the graph: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Laying out…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::GroupBarsChart</name>
    <message>
        <source>group %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::GroupingDocument</name>
    <message>
        <source>The hosts changed: group again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The saved grouping was for other hosts: group again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>grouping state: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::GroupingPage</name>
    <message>
        <source>G: the number of groups (1 to the number of hosts)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>flops: peak FP32</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>config: cores, clocks, SMs, memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hp: measured latencies (as rates)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>he: what latency follows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ha: hp and he</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What each group should get an equal total of (docs/grouping.md); hp, he and ha need a device vectors file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A device vectors file written by cleave device-vector --out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The benchmark each served task runs (Arch2End Case 2), from the vectors file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> tasks/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grouping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Groups (G)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Features</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vectors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Serving (Case 2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arrivals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Device Vectors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device vectors (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 devices, %3 benchmarks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none (no serving)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cluster serves at most %1 images/s: %2 tasks/s of %3 images.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cluster has no hosts: open a cluster or add devices in the Cluster tab.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grouping %1 hosts into %2 groups by every feature set…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The hosts changed while grouping: group again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 hosts in %2 groups by %3 (%4 feature%5, each divided by its largest value): objective %6, best of %7 starts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; every feature set grouped in %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>. Figures the datasheets do not give count as 0 (%1 notes in the tooltip).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::GroupingResultView</name>
    <message>
        <source>Feature totals per group (1 = an equal share)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Serving latency per group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Spread across groups, by feature set&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>group %1: 1 host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>group %1: %2 hosts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hosts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Devices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>images/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p95 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>group %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Feature sums of group %1 (%2)
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>group %1, %2: %3 (an equal share: %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lowest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>highest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>group %1: %2 of an equal share (%3, over %4 features)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>group total / equal share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>share over %1 features</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Serving latency: choose a workload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Serving latency per group: %1 at %2 tasks/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>group %1: %2 devices, %3 tasks, %4 images/s; mean %5 ms, p95 %6 ms; last task done at %7 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>95th percentile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Features</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Objective</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency σ (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mean (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Completion σ (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Capacity min/max</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sum over %1&apos;s features of the variance of the group totals, each feature divided by its largest value: in its own units, not comparable across feature sets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Spread across groups, by feature set&lt;/b&gt; (Table VI): lower σ, better balance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Spread across groups, by feature set&lt;/b&gt;: choose a workload for latencies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every available feature set grouped with the same G and seed; with a workload, each grouping serves the same arrivals. σ: the population standard deviation across the groups of their mean latency, and of the times their last tasks completed.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::HypervolumeChart</name>
    <message>
        <source>Hypervolume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>evaluations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hypervolume (normalised)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hypervolume</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::KernelDock</name>
    <message>
        <source>Kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runtime:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How the runtime groups nodes into kernels: a fusion rule set, or a classifier trained on measured fusion (cleave fuse-train)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The computer the studio runs on, detected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The device whose latency is predicted: by its calibrated or shipped predictor, else a roofline from its datasheet figures (uncalibrated)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter kernels by type, name or op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2): kernels %3 ms + the device&apos;s overhead %4 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Device File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device files (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Learned Fusion Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learned fusion models (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Fusion Rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fusion rules (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 kernels from %2 nodes; %3 of %4 edges fused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not fused: no rule names %1; each such node is its own kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unseen in training: %1; scored by op category alone</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::KernelTableModel</name>
    <message>
        <source>%1 µs, by the model for %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MACs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency (ms)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::LatencyBreakdownDock</name>
    <message>
        <source>Latency by Kernel Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No prediction</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::LatencyByTypeModel</name>
    <message>
        <source>%1: %2, %3 ms, %4% of the kernels&apos; time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernel type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::LatencyLegend</name>
    <message>
        <source>Kernel latency on %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> ms</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::LinkTrafficModel</name>
    <message>
        <source>within %1 (memory)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Gbit/s, %2 µs latency per transfer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes / input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms / input</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::LlmMemoryBars</name>
    <message>
        <source>capacity not known</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>longest context %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::LlmMemoryView</name>
    <message>
        <source>Context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The longest context cached, which sizes every KV cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batches in flight at once through the pipeline, each with a KV cache of its own</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:%1&apos;&gt;■&lt;/span&gt; weights  &lt;span style=&apos;color:%2&apos;&gt;■&lt;/span&gt; KV cache  &lt;span style=&apos;color:%3&apos;&gt;■&lt;/span&gt; activations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model on show is no decoder: it has no KV cache to size.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No mapping on show.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fits: no pool gives a capacity.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Does not fit: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fits; tightest: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens of the prompt: their prefill through the pipeline is the time to first token (0: none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens generated after the prompt, one decode step each</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the prompt&apos;s tokens for the time to first token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicting the prefill of %1 tokens on every PE…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No time to first token: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First token after %1 ms (the prefill of %2 tokens).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A reply of %1 tokens: %2 s.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::MainWindow</name>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cleave</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Partition</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DSE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grouping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not use these fusion rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %p%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading %1 cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Measurements…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Cluster…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Ma&amp;pping…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save Mapping…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export AutoDiCE Package…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Find Nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Cleave</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No Recent Files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear List</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Model or Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Models and projects (*.onnx *.cleave);;ONNX models (*.onnx);;Cleave projects (*.cleave);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cleave — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loaded %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loaded %1 with a warning: see the summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loaded %1 with %2 warnings: see the summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not open %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not open model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not open %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%p%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Measured Dataset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured datasets (*.json *.json.xz);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not read %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not open measurements</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read %1 measured runs from %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search the Pareto front of mappings (NSGA-II)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a model and a cluster first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not open cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened cluster %1: %2 hosts, %3 PEs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Mapping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AutoDiCE mappings (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened mapping %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not open mapping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Mapping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AutoDiCE mappings (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not save mapping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export AutoDiCE Package (a folder)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exporting %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported the package to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not export the package</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model &amp;Dims…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::MeasuredComparisonDock</name>
    <message>
        <source>Predicted vs Measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The measured run of this model to compare with</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a measured dataset (File &gt; Open Measurements…) to compare predictions with it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no run of %2; it has runs of %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not lay the run&apos;s kernels over the model: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 timed kernels, mean error %2%; end to end %3 ms measured, %4 ms predicted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 timed kernels of %2, measured with %3 on %4; mean absolute error of their predictions %5%. End to end: measured %6 ms (the median of the runs), predicted %7 ms on %8 by %9. Points on the dashed line are predicted exactly.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::MeasuredComparisonModel</name>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2)&lt;br&gt;measured %3 ms, predicted %4 ms (%5%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicted (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error (%)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::MeasuredRunsPanel</name>
    <message>
        <source>Measure on This Machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run this mapping for real with Open MPI on this machine, one rank per PE of the mapping (cleave run-partition), and compare the measured throughput with the prediction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mapping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicted /s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured /s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured / predicted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs diff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel Measuring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A measurement is running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a model and a cluster first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cleave executable was not found beside the studio or on PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open MPI&apos;s mpirun was not found (install openmpi-bin).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measuring %1 with %2 inputs…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measuring %1 was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measuring %1 failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: measured %2 inputs/s, predicted %3 (measured / predicted %4); max abs diff to the whole model %5.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::MeasuredScatterChart</name>
    <message>
        <source>predicted = measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>measured (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>predicted (ms)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::ModelDimsDialog</name>
    <message>
        <source>Model Dims — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bind the model&apos;s symbolic dims. For a language-model decoder: decode=L (one new token after L cached ones) or prefill=N (N new tokens, none cached), and batch=B (1 when not given). Any dim by its name: sequence_length=128, s0=1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decode=1024 batch=1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::ModelLoadRunner</name>
    <message>
        <source>%1: internal error: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::ModelSummaryDock</name>
    <message>
        <source>Summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p style=&apos;color:%1&apos;&gt;No model loaded.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Producer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GMACs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GFLOPs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Op type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MACs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::NodeTableModel</name>
    <message>
        <source>A shape this node needs is unknown: its figures are a lower bound.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MACs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::NodeTablePage</name>
    <message>
        <source>Filter by name, op or shape; every term must match (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 nodes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::ParallelCoordinatesChart</name>
    <message>
        <source>No solutions yet</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::ParetoFrontChart</name>
    <message>
        <source>Pareto front</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>front</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exact optimum</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::PartitionDocument</name>
    <message>
        <source>its prefill fuses into %1 kernels, the decode step into %2, so one mapping cannot split both</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::PartitionPage</name>
    <message>
        <source>Balance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All PEs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Cluster…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the splits so that the PEs of the mapping, in its order, get equal compute time (undoable)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write this mapping as an AutoDiCE package: mapping.json, platform.txt, rankfile, hostfile, sender/receiver tables and one sub-model per PE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also show the lanes of PEs without predicted latencies, which cannot take kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Links</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicting every kernel on the %1 PEs of %2…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a cluster (File &gt; Open Cluster…: a .cluster.json or an AutoDiCE platform.txt) to split the model across its devices.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a model to split it across %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No PE of this cluster has predicted latencies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 segments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no transfers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2, %3 per input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>transfer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>transfers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot take kernels: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 PEs cannot take kernels (%2 … %3): %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no mapping to save: open a model and a cluster first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LLM memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens/s (%2 in flight) · %3 ms per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 inferences/s · pipeline latency %2 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · bottleneck %2 · %3 · %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first token %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::PartitionView</name>
    <message>
        <source>latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot take kernels: no predicted latencies (see the note above)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1–%2 · %3 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 of %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Split %1 before kernel %2: drag it, or click it and press Left/Right (Shift: 10 kernels); Delete removes it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernel %1: %2 (%3)
%4 ms on %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Segment %1: kernels %2–%3 on %4, %5 ms of compute
Drag it to another lane to run it there</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove Split at Kernel %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run Segment %1 (Kernels %2–%3) On</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add Split Before Kernel %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show Every Kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>overview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
in %1 (kernels %2–%3, %4 ms as mapped)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::PeFiguresView</name>
    <message>
        <source>Time (communication)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory of capacity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Energy per input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: its host needs %2 of %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 (%3%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (capacity unknown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no power figure for this device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 mJ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %4 needs %2 of %3 usable</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::ProjectController</name>
    <message>
        <source>&amp;New Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a new, empty window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Project &amp;As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cleave</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not open project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not open %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project opened with problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was opened, but not all of it could be restored:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recovered %1 from its autosave</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>untitled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cleave projects (*.cleave)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not save project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The project is still being opened.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save changes?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This window&apos;s work was never saved as a project.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has unsaved changes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save them in the project before closing?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Autosave failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Work that was never saved as a project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changes to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recover unsaved work?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 were autosaved at %2, but Cleave ended before they were saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recover opens them; Discard deletes the autosave; Later asks again at the next start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Recover</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not recover</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is in use by another Cleave window.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::PropertiesDock</name>
    <message>
        <source>Properties</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p style=&apos;color:%1&apos;&gt;Click a node or a kernel in the graph, or pick one in a table.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 (topological)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (%1 nodes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (alone)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attributes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MACs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A shape this node needs is unknown: these figures are a lower bound.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernel %1 of %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Launches</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::StartPage</name>
    <message>
        <source>Open the example project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open an ONNX model (Ctrl+O) or drop one here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ResNet-101 split over eight Jetson Xavier NX boards</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p align=&apos;center&apos; style=&apos;color:%1&apos;&gt;Recent files&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cleave::ui::StudioDocument</name>
    <message>
        <source>opening the model %1 was cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model could not be opened: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a model and a cluster before a mapping.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening %1: its PEs&apos; nodes are fused apart and predicted…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model, its kernels or the cluster changed before the mapping was shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the kernels could not be predicted on the cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cuts through kernels, so each PE fuses its nodes on its own and the parts are costed as kernels of their own: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not split-point shaped: %2. It is shown as %3 segments, one per stretch; each PE&apos;s figures sum its segments.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the fusion rules %1 could not be used: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DSE: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grouping: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the workload (a context of %1 tokens, %2 sequences in flight) does not fit the model</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
