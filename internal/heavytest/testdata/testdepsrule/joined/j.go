package joined
