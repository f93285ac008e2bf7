package modern
