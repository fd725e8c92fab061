import CartCLI

CartCommandLine.main()
