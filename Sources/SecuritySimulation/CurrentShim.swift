extension Simulation {
    public static var current: Simulation { .shared }
}
