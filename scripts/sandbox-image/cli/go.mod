module hangar/cli

go 1.19
