import Testing

@testable import FrameSimulation

@Suite("Cassowary constraint solver")
struct LayoutConstraintSolverTests {
    let x = Variable("x")
    let y = Variable("y")

    @Test("Required equalities are solved exactly")
    func solvesEqualities() throws {
        var solver = ConstraintSolver()
        try solver.add(Constraint(Expression(x), .equal, 10))
        try solver.add(Constraint(Expression(x) + Expression(y), .equal, 30))
        #expect(solver.value(of: x) == 10)
        #expect(solver.value(of: y) == 20)
    }

    @Test("An inequality bounds a weaker preference from either side")
    func inequalitiesBoundPreferences() throws {
        var solver = ConstraintSolver()
        try solver.add(Constraint(Expression(x), .greaterThanOrEqual, 10))
        try solver.add(Constraint(Expression(x), .equal, 0, strength: .weak))
        try solver.add(Constraint(Expression(y), .lessThanOrEqual, 100))
        try solver.add(Constraint(Expression(y), .equal, 250, strength: .weak))
        #expect(solver.value(of: x) == 10)
        #expect(solver.value(of: y) == 100)
    }

    @Test(
        "The stronger of two conflicting preferences wins",
        arguments: [
            (Strength.strong, Strength.medium), (.medium, .weak), (.strong, .weak),
            (Strength(weak: 250), Strength(weak: 50)),
        ]
    )
    func strongerPreferenceWins(stronger: Strength, weaker: Strength) throws {
        var solver = ConstraintSolver()
        try solver.add(Constraint(Expression(x), .equal, 10, strength: weaker))
        try solver.add(Constraint(Expression(x), .equal, 20, strength: stronger))
        #expect(solver.value(of: x) == 20)
    }

    @Test("A required constraint beats any number of strong ones")
    func requiredBeatsStrong() throws {
        var solver = ConstraintSolver()
        for _ in 0..<5 { try solver.add(Constraint(Expression(x), .equal, 50, strength: .strong)) }
        try solver.add(Constraint(Expression(x), .lessThanOrEqual, 40))
        #expect(solver.value(of: x) == 40)
    }

    @Test("Weights add up: two weak constraints outvote one of half the weight")
    func weightsAddUp() throws {
        var solver = ConstraintSolver()
        try solver.add(Constraint(Expression(x), .equal, 0, strength: Strength(weak: 2)))
        try solver.add(Constraint(Expression(y), .equal, 0, strength: Strength(weak: 2)))
        // Satisfying x + y == 10 costs the two weak constraints 2·10 in total, less than violating it (3·10).
        try solver.add(Constraint(Expression(x) + Expression(y), .equal, 10, strength: Strength(weak: 3)))
        #expect(solver.value(of: x) + solver.value(of: y) == 10)
    }

    @Test("Strength levels clamp to 0...1000 and compare by weight")
    func strengthLevels() {
        #expect(Strength.required.value == 1_001_001_000)
        #expect(Strength(strong: 2000) == Strength(strong: 1000))
        #expect(Strength(medium: -5) == Strength(weak: 0))
        #expect(Strength(medium: 999) < .strong)
        #expect(Strength(weak: 1000) < Strength(medium: 2))
        #expect(Strength(strong: 1, weight: 3) == Strength(strong: 3))
        #expect(!Strength.strong.isRequired && Strength.required.isRequired)
    }

    @Test("Removing a constraint gives the value back to the weaker preference")
    func removeRestoresWeaker() throws {
        var solver = ConstraintSolver()
        try solver.add(Constraint(Expression(x), .equal, 10, strength: .weak))
        let strong = Constraint(Expression(x), .equal, 20, strength: .strong)
        try solver.add(strong)
        #expect(solver.value(of: x) == 20)
        try solver.remove(strong)
        #expect(solver.value(of: x) == 10)
        #expect(!solver.contains(strong))
    }

    @Test("Removing a required inequality that was binding frees the variable")
    func removeBindingInequality() throws {
        var solver = ConstraintSolver()
        try solver.add(Constraint(Expression(x), .equal, 100, strength: .weak))
        let bound = Constraint(Expression(x), .lessThanOrEqual, 30)
        try solver.add(bound)
        try solver.add(Constraint(Expression(y), .equal, Expression(x) + 5))
        #expect(solver.value(of: y) == 35)
        try solver.remove(bound)
        #expect(solver.value(of: x) == 100)
        #expect(solver.value(of: y) == 105)
    }

    @Test(
        "A contradicting required constraint is reported and leaves the solution as it was",
        arguments: [
            (Relation.equal, 20.0), (.greaterThanOrEqual, 11), (.lessThanOrEqual, 9),
        ])
    func unsatisfiableRequired(relation: Relation, constant: Double) throws {
        var solver = ConstraintSolver()
        try solver.add(Constraint(Expression(x), .equal, 10))
        try solver.add(Constraint(Expression(y), .equal, Expression(x) + Expression(x), strength: .strong))
        let contradiction = Constraint(Expression(x), relation, Expression(constant))
        #expect(throws: ConstraintSolverError.unsatisfiableConstraint(contradiction)) {
            try solver.add(contradiction)
        }
        #expect(!solver.contains(contradiction))
        #expect(solver.value(of: x) == 10)
        #expect(solver.value(of: y) == 20)
        try solver.add(Constraint(Expression(y), .lessThanOrEqual, 15))
        #expect(solver.value(of: y) == 15)
    }

    @Test("A contradiction between constants alone is unsatisfiable; a tautology is accepted")
    func constantRows() throws {
        var solver = ConstraintSolver()
        let impossible = Constraint(Expression(x) - Expression(x), .equal, 1)
        #expect(throws: ConstraintSolverError.unsatisfiableConstraint(impossible)) { try solver.add(impossible) }
        try solver.add(Constraint(Expression(x) - Expression(x), .equal, 0))
        try solver.add(Constraint(2, .equal, 2))
    }

    @Test("Adding a constraint twice or removing an unknown one are errors")
    func duplicateAndUnknownConstraints() throws {
        var solver = ConstraintSolver()
        let constraint = Constraint(Expression(x), .equal, 1)
        try solver.add(constraint)
        #expect(throws: ConstraintSolverError.duplicateConstraint(constraint)) { try solver.add(constraint) }
        try solver.remove(constraint)
        #expect(throws: ConstraintSolverError.unknownConstraint(constraint)) { try solver.remove(constraint) }
    }

    @Test("Constraints are identities: an identical one built separately is a different constraint")
    func constraintIdentity() throws {
        var solver = ConstraintSolver()
        let first = Constraint(Expression(x), .equal, 1)
        let second = Constraint(Expression(x), .equal, 1)
        #expect(first != second)
        try solver.add(first)
        try solver.add(second)
        try solver.remove(first)
        #expect(solver.contains(second))
    }

    @Test("Edit variables follow suggestions within the required constraints (the Cassowary midpoint example)")
    func editVariableMidpoint() throws {
        let left = Variable("left")
        let middle = Variable("middle")
        let right = Variable("right")
        var solver = ConstraintSolver()
        try solver.add(Constraint(2 * Expression(middle), .equal, Expression(left) + Expression(right)))
        try solver.add(Constraint(Expression(left) + 10, .lessThanOrEqual, Expression(right)))
        try solver.add(Constraint(Expression(right), .lessThanOrEqual, 100))
        try solver.add(Constraint(Expression(left), .greaterThanOrEqual, 0))
        try solver.add(Constraint(Expression(right) - Expression(left), .equal, 10, strength: .weak))
        try solver.addEditVariable(middle, strength: .strong)

        for (suggestion, expected) in [
            (50.0, (45.0, 50.0, 55.0)), (2, (0, 5, 10)), (99, (90, 95, 100)), (30, (25, 30, 35)),
        ] {
            try solver.suggestValue(suggestion, for: middle)
            #expect(solver.value(of: left) == expected.0, "suggesting \(suggestion)")
            #expect(solver.value(of: middle) == expected.1, "suggesting \(suggestion)")
            #expect(solver.value(of: right) == expected.2, "suggesting \(suggestion)")
        }
    }

    @Test("Many suggestions in a row keep dependent variables in step")
    func repeatedSuggestions() throws {
        var solver = ConstraintSolver()
        try solver.add(Constraint(Expression(y), .equal, 2 * Expression(x) + 5))
        try solver.add(Constraint(Expression(y), .lessThanOrEqual, 105))
        try solver.addEditVariable(x, strength: .medium)
        for value in stride(from: -20.0, through: 80, by: 7) {
            try solver.suggestValue(value, for: x)
            let clamped = min(value, 50)
            #expect(solver.value(of: x) == clamped)
            #expect(solver.value(of: y) == 2 * clamped + 5)
        }
    }

    @Test("Removing an edit variable drops its suggestion")
    func removeEditVariable() throws {
        var solver = ConstraintSolver()
        try solver.add(Constraint(Expression(x), .equal, 7, strength: .weak))
        try solver.addEditVariable(x, strength: .strong)
        try solver.suggestValue(42, for: x)
        #expect(solver.value(of: x) == 42)
        try solver.removeEditVariable(x)
        #expect(solver.value(of: x) == 7)
        #expect(throws: ConstraintSolverError.unknownEditVariable(x)) { try solver.suggestValue(1, for: x) }
    }

    @Test("Edit variable misuse is reported")
    func editVariableErrors() throws {
        var solver = ConstraintSolver()
        #expect(throws: ConstraintSolverError.unknownEditVariable(x)) { try solver.suggestValue(1, for: x) }
        #expect(throws: ConstraintSolverError.unknownEditVariable(x)) { try solver.removeEditVariable(x) }
        #expect(throws: ConstraintSolverError.requiredEditStrength(x)) {
            try solver.addEditVariable(x, strength: .required)
        }
        try solver.addEditVariable(x, strength: .strong)
        #expect(throws: ConstraintSolverError.duplicateEditVariable(x)) {
            try solver.addEditVariable(x, strength: .weak)
        }
    }

    @Test("A solver is a value: changing a copy leaves the original as it was")
    func valueSemantics() throws {
        var original = ConstraintSolver()
        try original.add(Constraint(Expression(x), .equal, 1, strength: .weak))
        var copy = original
        try copy.add(Constraint(Expression(x), .equal, 2))
        #expect(original.value(of: x) == 1)
        #expect(copy.value(of: x) == 2)
    }

    @Test("A chain of one hundred spacing constraints solves to the running sum")
    func longChain() throws {
        let variables = (0..<100).map { Variable("v\($0)") }
        var solver = ConstraintSolver()
        try solver.add(Constraint(Expression(variables[0]), .equal, 0))
        for index in 1..<variables.count {
            let previous = Expression(variables[index - 1])
            try solver.add(
                Constraint(Expression(variables[index]), .greaterThanOrEqual, previous + Expression(Double(index))))
            try solver.add(Constraint(Expression(variables[index]), .equal, 0, strength: .weak))
        }
        for (index, variable) in variables.enumerated() {
            #expect(solver.value(of: variable) == Double(index * (index + 1) / 2))
        }
    }
}
