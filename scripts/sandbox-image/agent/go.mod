module hangar/testagent

go 1.19
