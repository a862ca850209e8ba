module hangar.dev/pullwatch

go 1.23
