from mfls.cli import main

raise SystemExit(main())
