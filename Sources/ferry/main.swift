import FerryCLI

await FerryMain.main()
