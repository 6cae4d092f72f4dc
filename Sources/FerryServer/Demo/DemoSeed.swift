/// Loads the demo data (`seedDemo`): users, movies, recipes, a family and an audio library.
enum DemoSeed {
    static func load(into environment: ServerEnvironment) async throws {
    }
}
