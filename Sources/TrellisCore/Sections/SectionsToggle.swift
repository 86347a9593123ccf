/// The sections feature's entry point: the actions reduced one after another (`SectionsReducer`), then the final
/// state rendered against the state before them (`SectionsRenderer`).
public enum SectionsToggle {
    /// A step per action on `meter`; the output is incomplete once the meter says stop.
    public static func compute(_ input: SectionsInput, meter: inout WorkMeter) -> SectionsOutput {
        SectionsRenderer.render(SectionsReducer.reduce(input.state, input.actions, meter: &meter), initial: input.state)
    }

    /// Without a meter.
    public static func compute(_ input: SectionsInput) -> SectionsOutput {
        var meter = WorkMeter()
        return compute(input, meter: &meter)
    }
}
