/// FrameSimulation: real computation for the five techniques (layout, diffing, image decode,
/// corner rounding, interactive transitions) and the simulated display loop that runs them.
package enum Workloads {}
