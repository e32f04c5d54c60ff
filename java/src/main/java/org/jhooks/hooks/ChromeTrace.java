package org.jhooks.hooks;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.protobuf.TextFormat;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.tensorflow.proto.DeviceStepStats;
import org.tensorflow.proto.NodeExecStats;
import org.tensorflow.proto.NodeOutput;
import org.tensorflow.proto.StepStats;

/**
 * Builds a Chrome trace (the JSON chrome://tracing and Perfetto read) from a {@code StepStats}
 * proto: a port of TensorFlow's {@code tensorflow/python/client/timeline.py} ({@code
 * Timeline.generate_chrome_trace_format}, op time "schedule"), event for event, so both languages
 * write the same trace for the same step stats. Used by {@link ProfilerHook}.
 */
final class ChromeTrace {
  private static final Pattern OP_LABEL = Pattern.compile("(.*) = (.*)\\((.*)\\)");

  private final JsonArray metadata = new JsonArray();
  private final JsonArray events = new JsonArray();
  private final Map<String, Integer> devicePids = new LinkedHashMap<>();
  private final Map<String, Integer> tensorPids = new LinkedHashMap<>();
  private final Map<String, Tensor> tensors = new LinkedHashMap<>();
  private final Map<String, long[]> flowStarts = new LinkedHashMap<>();
  private int nextPid;
  private int nextFlowId;

  /** One tensor's lifetime (TF's {@code _TensorTracker}). */
  private static final class Tensor {
    final String name;
    final int objectId;
    final long createTime;
    final int pid;
    final String allocator;
    final long numBytes;
    long lastUnref = Long.MIN_VALUE;

    Tensor(String name, int objectId, long createTime, int pid, String allocator, long numBytes) {
      this.name = name;
      this.objectId = objectId;
      this.createTime = createTime;
      this.pid = pid;
      this.allocator = allocator;
      this.numBytes = numBytes;
    }

    void unref(long time) {
      lastUnref = Math.max(lastUnref, time);
    }
  }

  private ChromeTrace() {}

  /**
   * @param stepStats the run's {@code RunMetadata.step_stats}
   * @return the trace JSON, {@code {"traceEvents": [...]}}, pretty-printed
   */
  static String of(StepStats stepStats, boolean showDataflow, boolean showMemory) {
    ChromeTrace t = new ChromeTrace();
    List<int[]> lanes = t.allocatePidsAndLanes(stepStats);
    t.analyzeTensors(stepStats, lanes, showMemory);
    t.showCompute(stepStats, lanes, showDataflow);
    if (showMemory) {
      t.showMemoryCounters();
    }
    JsonArray all = new JsonArray();
    all.addAll(t.metadata);
    all.addAll(t.events);
    JsonObject trace = new JsonObject();
    trace.add("traceEvents", all);
    return new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(trace);
  }

  /** Pids as TF allocates them; each node's lane (TF's {@code thread_id}) per device. */
  private List<int[]> allocatePidsAndLanes(StepStats stats) {
    int allocators = nextPid++;
    emitPid("Allocators", allocators);
    List<int[]> lanesPerDevice = new ArrayList<>();
    for (DeviceStepStats dev : stats.getDevStatsList()) {
      int devicePid = nextPid++;
      devicePids.put(dev.getDevice(), devicePid);
      int tensorsPid = nextPid++;
      tensorPids.put(dev.getDevice(), tensorsPid);
      emitPid(dev.getDevice() + " Compute", devicePid);
      emitPid(dev.getDevice() + " Tensors", tensorsPid);
      List<Long> lanes = new ArrayList<>(List.of(0L));
      int[] tids = new int[dev.getNodeStatsCount()];
      for (int n = 0; n < tids.length; n++) {
        NodeExecStats ns = dev.getNodeStats(n);
        int lane = -1;
        for (int i = 0; i < lanes.size(); i++) {
          if (ns.getAllStartMicros() > lanes.get(i)) {
            lane = i;
            lanes.set(i, ns.getAllStartMicros() + ns.getAllEndRelMicros());
            break;
          }
        }
        if (lane < 0) {
          lane = lanes.size();
          lanes.add(ns.getAllStartMicros() + ns.getAllEndRelMicros());
        }
        tids[n] = lane;
      }
      lanesPerDevice.add(tids);
    }
    return lanesPerDevice;
  }

  private void analyzeTensors(StepStats stats, List<int[]> lanes, boolean showMemory) {
    for (int d = 0; d < stats.getDevStatsCount(); d++) {
      DeviceStepStats dev = stats.getDevStats(d);
      int devicePid = devicePids.get(dev.getDevice());
      int tensorsPid = tensorPids.get(dev.getDevice());
      for (int n = 0; n < dev.getNodeStatsCount(); n++) {
        NodeExecStats ns = dev.getNodeStats(n);
        int tid = lanes.get(d)[n];
        long start = ns.getAllStartMicros();
        long end = start + ns.getAllEndRelMicros();
        for (int index = 0; index < ns.getOutputCount(); index++) {
          NodeOutput output = ns.getOutput(index);
          String name = index == 0 ? ns.getNodeName() : ns.getNodeName() + ":" + index;
          var allocation = output.getTensorDescription().getAllocationDescription();
          Tensor tensor =
              new Tensor(
                  name,
                  tensors.size(),
                  start,
                  tensorsPid,
                  allocation.getAllocatorName(),
                  allocation.getRequestedBytes());
          tensors.put(name, tensor); // a name seen before keeps its place, as in a Python dict
          tensor.unref(end);
          flowStarts.put(name, new long[] {end, devicePid, tid});
          if (showMemory) {
            JsonObject create = event("N", "Tensor", name, tensorsPid, tid, start);
            create.addProperty("id", tensor.objectId);
            events.add(create);
            JsonObject snapshot = event("O", "Tensor", name, tensorsPid, tid, end - 1);
            snapshot.addProperty("id", tensor.objectId);
            JsonObject desc = new JsonObject();
            desc.addProperty(
                "tensor_description",
                TextFormat.printer()
                    .printToString(output.getTensorDescription())
                    .replace("\"", ""));
            JsonObject args = new JsonObject();
            args.add("snapshot", desc);
            snapshot.add("args", args);
            events.add(snapshot);
          }
        }
      }
    }
  }

  private void showCompute(StepStats stats, List<int[]> lanes, boolean showDataflow) {
    for (int d = 0; d < stats.getDevStatsCount(); d++) {
      DeviceStepStats dev = stats.getDevStats(d);
      int devicePid = devicePids.get(dev.getDevice());
      boolean gpuTrace =
          dev.getDevice().contains("/stream:") || dev.getDevice().contains("/memcpy");
      for (int n = 0; n < dev.getNodeStatsCount(); n++) {
        NodeExecStats ns = dev.getNodeStats(n);
        int tid = lanes.get(d)[n];
        long start = ns.getAllStartMicros();
        long end = start + ns.getAllEndRelMicros();
        emitOp(ns, devicePid, tid, gpuTrace);
        if (gpuTrace || ns.getNodeName().equals("RecvTensor")) {
          continue;
        }
        for (String input : opLabelInputs(ns.getTimelineLabel())) {
          String name = input;
          if (!tensors.containsKey(name)) {
            int index = name.lastIndexOf("/_");
            if (index > 0) {
              name = name.substring(0, index);
            }
          }
          Tensor tensor = tensors.get(name);
          if (tensor == null) {
            continue;
          }
          tensor.unref(end - 1);
          if (showDataflow) {
            long[] create = flowStarts.get(name);
            if (create[1] != devicePid || create[2] != tid) {
              int flowId = nextFlowId++;
              JsonObject s =
                  event("s", "DataFlow", name, (int) create[1], (int) create[2], create[0]);
              s.addProperty("id", flowId);
              events.add(s);
              JsonObject t = event("t", "DataFlow", name, devicePid, tid, start);
              t.addProperty("id", flowId);
              events.add(t);
            }
          }
        }
      }
    }
  }

  private void emitOp(NodeExecStats ns, int pid, int tid, boolean gpuTrace) {
    String nodeName = ns.getNodeName();
    String op;
    List<String> inputs = List.of();
    if (gpuTrace) {
      String label = ns.getTimelineLabel();
      int start = label.indexOf("@@");
      int end = label.indexOf('#');
      if (start >= 0 && end >= 0 && start + 2 < end) {
        nodeName = label.substring(start + 2, end);
      }
      String[] fields = (nodeName + ":unknown").split(":", -1);
      nodeName = fields[0];
      op = fields[1];
    } else if (nodeName.equals("RecvTensor")) {
      op = "RecvTensor";
    } else {
      Matcher m = OP_LABEL.matcher(ns.getTimelineLabel());
      op = m.lookingAt() ? m.group(2) : "unknown";
      inputs = opLabelInputs(ns.getTimelineLabel());
    }
    JsonObject args = new JsonObject();
    args.addProperty("name", nodeName);
    args.addProperty("op", op);
    for (int i = 0; i < inputs.size(); i++) {
      args.addProperty("input" + i, inputs.get(i));
    }
    JsonObject region = event("X", "Op", op, pid, tid, ns.getAllStartMicros());
    region.addProperty("dur", ns.getAllEndRelMicros());
    region.add("args", args);
    events.add(region);
  }

  private static List<String> opLabelInputs(String label) {
    Matcher m = OP_LABEL.matcher(label);
    if (!m.lookingAt() || m.group(3).isEmpty()) {
      return List.of();
    }
    return List.of(m.group(3).split(", ", -1));
  }

  private void showMemoryCounters() {
    Map<String, List<Object[]>> allocations = new LinkedHashMap<>();
    for (Tensor tensor : tensors.values()) {
      JsonObject delete = event("D", "Tensor", tensor.name, tensor.pid, 0, tensor.lastUnref);
      delete.addProperty("id", tensor.objectId);
      events.add(delete);
      List<Object[]> list = allocations.computeIfAbsent(tensor.allocator, a -> new ArrayList<>());
      list.add(new Object[] {tensor.createTime, tensor.numBytes, tensor.name});
      list.add(new Object[] {tensor.lastUnref, -tensor.numBytes, tensor.name});
    }
    int allocatorsPid = 0;
    Comparator<Object[]> order =
        Comparator.<Object[]>comparingLong(a -> (Long) a[0])
            .thenComparingLong(a -> (Long) a[1])
            .thenComparing(a -> (String) a[2]);
    for (Map.Entry<String, List<Object[]>> e : allocations.entrySet()) {
      List<Object[]> list = e.getValue();
      list.sort(order);
      long total = 0;
      for (Object[] a : list) {
        total += (Long) a[1];
        JsonObject counter = event("C", "Memory", e.getKey(), allocatorsPid, 0, (Long) a[0]);
        JsonObject args = new JsonObject();
        args.addProperty(e.getKey(), total);
        counter.add("args", args);
        events.add(counter);
      }
    }
  }

  private void emitPid(String name, int pid) {
    JsonObject e = new JsonObject();
    e.addProperty("name", "process_name");
    e.addProperty("ph", "M");
    e.addProperty("pid", pid);
    JsonObject args = new JsonObject();
    args.addProperty("name", name);
    e.add("args", args);
    metadata.add(e);
  }

  private static JsonObject event(
      String ph, String category, String name, int pid, int tid, long timestamp) {
    JsonObject e = new JsonObject();
    e.addProperty("ph", ph);
    e.addProperty("cat", category);
    e.addProperty("name", name);
    e.addProperty("pid", pid);
    e.addProperty("tid", tid);
    e.addProperty("ts", timestamp);
    return e;
  }
}
