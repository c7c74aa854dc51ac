import MemoCLI
