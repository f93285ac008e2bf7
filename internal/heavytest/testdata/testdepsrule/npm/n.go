package npm
