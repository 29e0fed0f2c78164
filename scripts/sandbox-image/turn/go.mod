module hangar/turn

go 1.19
