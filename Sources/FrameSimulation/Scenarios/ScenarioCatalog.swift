/// A scenario the CLI can run by name, with its strategies.
package struct ScenarioDescriptor: Sendable {
    /// A strategy: one way of doing the scenario's work.
    package struct Strategy: Sendable, Hashable {
        /// The name `--strategy` takes.
        package var name: String
        /// One line on what it does.
        package var summary: String
    }

    /// The name `simulate` takes, e.g. `feed-scroll`.
    package var name: String
    /// One line on what the scenario does.
    package var summary: String
    /// Its strategies, the first being the default.
    package var strategies: [Strategy]
    /// Makes a fresh scenario for a strategy name and seed; `nil` for an unknown strategy.
    package var make: @Sendable (_ strategy: String, _ seed: UInt64) -> (any Scenario)?

    /// Creates a descriptor.
    package init(
        name: String, summary: String, strategies: [Strategy],
        make: @escaping @Sendable (String, UInt64) -> (any Scenario)?
    ) {
        self.name = name
        self.summary = summary
        self.strategies = strategies
        self.make = make
    }
}

/// Every scenario `framescope simulate` and `framescope demo` can run.
package enum ScenarioCatalog {
    /// All scenarios, in the order the demo runs them.
    package static let all: [ScenarioDescriptor] = [
        FeedScrollScenario.descriptor, DiffableUpdateScenario.descriptor, CornerRoundingScenario.descriptor,
        PaperTransitionScenario.descriptor,
    ]

    /// The scenario with this name.
    package static func scenario(named name: String) -> ScenarioDescriptor? {
        all.first { $0.name == name }
    }
}
