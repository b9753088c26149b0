/// FrameAnalysis: frames, budgets, percentiles, checks, comparisons and report renderers.
public enum Analysis {}
