import BookmarksPlugin
import FerryCLI

await FerryMain.run(plugins: Composition.shipped + [BookmarksPlugin.self])
